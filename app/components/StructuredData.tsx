import { useRouteLoaderData } from "@remix-run/react";

import type { loader as rootLoader } from "~/root";

import { islandHtml } from "./StaticIsland";
import * as serverOnly from "./structured-data.server";

const jsonLd = serverOnly as Partial<typeof serverOnly>;

/** A data block is not executed (the policy needs no hash); kept like a static island (decision 021). */
export function StructuredData() {
  const root = useRouteLoaderData<typeof rootLoader>("root");
  if (!root) return null;
  const render = jsonLd.structuredDataScripts;
  const html = islandHtml("json-ld", render && (() => render(root.siteUrl)));
  return (
    <div hidden data-island="json-ld" dangerouslySetInnerHTML={{ __html: html }} suppressHydrationWarning />
  );
}
