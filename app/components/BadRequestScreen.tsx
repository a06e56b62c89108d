import { badRequestText } from "~/content/bad-request";

import { StatusScreen } from "./StatusScreen";

export function BadRequestScreen() {
  return <StatusScreen text={badRequestText} />;
}
