import { liveReloadSource } from "~/lib/live-reload";

/** Development only (root.tsx renders it when NODE_ENV is "development"): reloads the page after a rebuild. */
export function DevReload() {
  return <script suppressHydrationWarning dangerouslySetInnerHTML={{ __html: liveReloadSource }} />;
}
