import { existsSync } from "node:fs";
import path from "node:path";

import type { ServerBuild } from "@remix-run/node";

type BuildFiles = Pick<ServerBuild, "assets" | "assetsBuildDirectory" | "publicPath">;

/**
 * The browser files the build's pages will ask for that are not on disk. A server build shipped
 * without its browser build serves pages that cannot hydrate, and as the page works without
 * JavaScript, nothing else would notice.
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
