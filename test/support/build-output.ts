import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

import { root } from "./server-process.mjs";

export { root };

// Where `npm run build` (scripts/build.mjs, remix.config.js) writes: REMIX_BUILD_DIR or the defaults.
const outDir = process.env.REMIX_BUILD_DIR?.replace(/\/+$/, "");
export const serverBuildDir = join(root, outDir ?? "build");
export const browserBuildDir = join(root, outDir ? `${outDir}/assets` : "public/build");

export function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** The browser build's JavaScript files (none when there is no build). */
export function browserScripts(): string[] {
  return existsSync(browserBuildDir)
    ? filesUnder(browserBuildDir).filter((path) => path.endsWith(".js"))
    : [];
}
