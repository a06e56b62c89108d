import { badRequestText } from "~/content/bad-request";

import { StatusScreen } from "./StatusScreen";

/** Looks like the 404 screen: the visitor mistyped or was sent a broken link; the way home is the same. */
export function BadRequestScreen() {
  return <StatusScreen text={badRequestText} />;
}
