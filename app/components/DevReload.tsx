import { liveReloadSource } from "~/lib/live-reload";

/** Development only: reloads the page after a rebuild. */
export function DevReload() {
  return <script suppressHydrationWarning dangerouslySetInnerHTML={{ __html: liveReloadSource }} />;
}
