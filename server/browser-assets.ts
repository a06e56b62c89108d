import { existsSync } from "node:fs";
import path from "node:path";

import type { ServerBuild } from "@remix-run/node";

type BuildFiles = Pick<ServerBuild, "assets" | "assetsBuildDirectory" | "publicPath">;

/**
 * The browser files the build's pages will ask for (the entry, each route's module and shared
 * chunks, the manifest) that are not on disk, as paths. A server build shipped without its
 * browser build (or next to another build's) serves pages that cannot hydrate: the file
 * handler would fall through to public/ and answer an older build's chunks, or 404s. The page
 * still works without JavaScript, so nothing else would notice.
 */
export function missingBrowserAssets(build: BuildFiles, root: string): string[] {
  const { entry, routes, url } = build.assets;
  const urls = new Set<string>([entry.module, ...entry.imports, url]);
  for (const route of Object.values(routes)) {
    urls.add(route.module);
    for (const chunk of route.imports ?? []) urls.add(chunk);
  }
  const directory = path.resolve(root, build.assetsBuildDirectory);
  return [...urls]
    .filter((href) => href.startsWith(build.publicPath))
    .map((href) => path.join(directory, href.slice(build.publicPath.length)))
    .filter((file) => !existsSync(file));
}
