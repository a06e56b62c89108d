// Bundles the project's own Node programs written in TypeScript on top of app/lib with esbuild
// (already the Remix compiler's): the leads CLI (cli/leads.ts, decision 024) and the server
// (server/production.ts for `npm start`, server/dev.ts for `npm run dev`, decision 027). Node 20
// cannot run TypeScript. Packages stay imports from node_modules, as in the Remix server build, so
// the CLI and the server use the very same supabase-js, express and Remix as the app.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { build } from "esbuild";

const root = fileURLToPath(new URL("..", import.meta.url));

/** The production build folder: REMIX_BUILD_DIR (relative to the checkout, or absolute), else build/. */
export function productionBuildDir(buildDir = process.env.REMIX_BUILD_DIR) {
  return path.resolve(root, buildDir?.replace(/\/+$/, "") || "build");
}

export const cliBundlePath = (buildDir = productionBuildDir()) => `${buildDir}/cli/leads.mjs`;
export const serverBundlePath = (buildDir = productionBuildDir()) => `${buildDir}/server/production.mjs`;

/** Every package the project declares stays an import (`~/` is the app, bundled). */
function packages() {
  const manifest = JSON.parse(readFileSync(`${root}package.json`, "utf8"));
  const names = Object.keys({ ...manifest.dependencies, ...manifest.devDependencies });
  // esbuild's `packages: "external"` would take `~/` for a package.
  return names.flatMap((name) => [name, `${name}/*`]);
}

export async function bundle(entry, outfile) {
  await build({
    absWorkingDir: root,
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    external: packages(),
    tsconfig: "tsconfig.json",
    sourcemap: true,
    logLevel: "warning",
  });
  return outfile;
}

/** The CLI and the production server, next to the server build in `buildDir`. */
export async function bundleProductionPrograms(buildDir = productionBuildDir()) {
  return [
    await bundle("cli/leads.ts", cliBundlePath(buildDir)),
    await bundle("server/production.ts", serverBundlePath(buildDir)),
  ];
}
