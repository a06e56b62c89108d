#!/usr/bin/env node
// The second step of `npm run build`: bundles the leads CLI (cli/leads.ts, TypeScript importing the
// server's own modules under app/lib) with esbuild into <build>/cli/leads.mjs, which
// `npm run leads` (scripts/leads.mjs) runs. Packages stay in node_modules, as for the server build,
// so the CLI calls the function through the very same supabase-js. REMIX_BUILD_DIR chooses the
// output folder, as in remix.config.js (decision 024).
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

import { build } from "esbuild";

const root = fileURLToPath(new URL("..", import.meta.url));

/** Where the bundle goes for a build folder (REMIX_BUILD_DIR, else build/). */
export function cliBundlePath(buildDir = process.env.REMIX_BUILD_DIR) {
  const outDir = buildDir?.replace(/\/+$/, "");
  return `${root}${outDir ?? "build"}/cli/leads.mjs`;
}

/** The runtime dependencies stay imports (`~/` is the app, bundled): esbuild's `packages: "external"` would take `~/` for a package. */
function dependencies() {
  const manifest = JSON.parse(readFileSync(`${root}package.json`, "utf8"));
  return Object.keys(manifest.dependencies ?? {}).flatMap((name) => [name, `${name}/*`]);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const outfile = cliBundlePath();
  await build({
    absWorkingDir: root,
    entryPoints: ["cli/leads.ts"],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    external: dependencies(),
    tsconfig: "tsconfig.json",
    sourcemap: true,
    logLevel: "warning",
  });
  console.log(`leads CLI: ${outfile.slice(root.length)}`);
}
