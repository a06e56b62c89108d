import { useLocation } from "@remix-run/react";
import { useEffect } from "react";

import { notFoundText } from "~/content/not-found";

import { StatusScreen } from "./StatusScreen";

export function NotFoundScreen() {
  const { pathname } = useLocation();
  useEffect(() => {
    console.error(notFoundText.consoleMessage, pathname);
  }, [pathname]);
  return <StatusScreen text={notFoundText} />;
}
