import { useRouteLoaderData } from "@remix-run/react";

import type { loader as rootLoader } from "~/root";

import { islandHtml } from "./StaticIsland";
import * as serverOnly from "./structured-data.server";

/** Undefined in the browser build, where `*.server` modules are empty. */
const jsonLd = serverOnly as Partial<typeof serverOnly>;

/**
 * The home page's JSON-LD. A data block is not executed, so the policy needs no
 * hash for it; it is rendered from the page's own content modules, on the server only:
 * like a static section (021-static-islands) its HTML is kept, never hydrated.
 */
export function StructuredData() {
  const root = useRouteLoaderData<typeof rootLoader>("root");
  if (!root) return null;
  const render = jsonLd.structuredDataScripts;
  const html = islandHtml("json-ld", render && (() => render(root.siteUrl)));
  return (
    <div hidden data-island="json-ld" dangerouslySetInnerHTML={{ __html: html }} suppressHydrationWarning />
  );
}
