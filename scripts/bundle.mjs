// Bundles the project's own Node programs written in TypeScript on top of app/lib with esbuild
// (already the Remix compiler's): the leads CLI (cli/leads.ts, decision 024) and the server
// (server/production.ts for `npm start`, server/dev.ts for `npm run dev`, decision 027). Node 24
// strips types, but not the app's `~/` imports nor its extensionless ones (decision 038).
//
// Pure-JavaScript packages are bundled in too (decision 045): loading them from node_modules, file
// by file, was half of what a start of the CLI cost (0.4 CPU s, of which 0.2 resolving and reading
// modules) and a sixth of the server's. These stay imports from node_modules: the native
// addon (better-sqlite3), pg (which looks for its optional native half at run time), Remix,
// whose server build imports it from node_modules too: the server hands that build to Remix's
// request handler, and both must be one copy. And MSW (the dev server's mocks), which reads files
// lying beside its modules (its HTTP parser's WebAssembly).
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { build } from "esbuild";

// From a string, not `new URL`: under a DOM test environment `URL` is the DOM's, which node:url refuses.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** The production build folder: REMIX_BUILD_DIR (relative to the checkout, or absolute), else build/. */
export function productionBuildDir(buildDir = process.env.REMIX_BUILD_DIR) {
  return path.resolve(root, buildDir?.replace(/\/+$/, "") || "build");
}

export const cliBundlePath = (buildDir = productionBuildDir()) => `${buildDir}/cli/leads.mjs`;
export const serverBundlePath = (buildDir = productionBuildDir()) => `${buildDir}/server/production.mjs`;

/** The packages that stay imports from node_modules (see above); every other one is bundled. */
const EXTERNAL = ["better-sqlite3", "pg", "@remix-run/*", "msw", "msw/*", "@mswjs/*"];

export async function bundle(entry, outfile) {
  await build({
    absWorkingDir: root,
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node22",
    external: EXTERNAL,
    // Bundled CommonJS packages call require(); an ES module has none of its own.
    banner: {
      js: 'import { createRequire as bundleRequire } from "node:module"; const require = bundleRequire(import.meta.url);',
    },
    tsconfig: "tsconfig.json",
    sourcemap: true,
    logLevel: "warning",
  });
  return outfile;
}

/** Where the compiled paint-first loader lies: next to the server build, which reads it at start. */
export const paintFirstLoaderPath = (buildDir = productionBuildDir()) => `${buildDir}/paint-first.js`;

/**
 * The inline loader of decisions 022 and 036 (app/lib/document/paint-first.inline.ts with its
 * imports), compiled into one small classic script for the server to inline into every document.
 * It is checked by lint and typecheck like any module, and tested as the code it is.
 * `evaluationOrder` (the build's first-visit modules, leaves first: `evaluationOrder` in
 * scripts/build.mjs) is written into it; without one (development, tests) the bootstrap evaluates
 * every module at once, as Remix's does.
 */
export async function compilePaintFirstLoader(evaluationOrder = []) {
  const result = await build({
    absWorkingDir: root,
    entryPoints: ["app/lib/document/paint-first.inline.ts"],
    write: false,
    bundle: true,
    platform: "browser",
    format: "iife",
    target: "es2020",
    minify: true,
    legalComments: "none",
    tsconfig: "tsconfig.json",
    logLevel: "warning",
    define: { EVALUATION_ORDER: JSON.stringify(evaluationOrder) },
  });
  const text = result.outputFiles[0].text.trim();
  // Inlined in a <script> element: nothing in it may end the element or open a comment.
  if (/<\/script|<!--/i.test(text)) throw new Error("The paint-first loader cannot be inlined as it is.");
  return text;
}

export async function bundlePaintFirstLoader(buildDir = productionBuildDir(), evaluationOrder = []) {
  const outfile = paintFirstLoaderPath(buildDir);
  mkdirSync(path.dirname(outfile), { recursive: true });
  writeFileSync(outfile, await compilePaintFirstLoader(evaluationOrder));
  return outfile;
}

/** The CLI, the production server and the paint-first loader, next to the server build in `buildDir`. */
export async function bundleProductionPrograms(
  buildDir = productionBuildDir(),
  { evaluationOrder = [] } = {},
) {
  return [
    await bundle("cli/leads.ts", cliBundlePath(buildDir)),
    await bundle("server/production.ts", serverBundlePath(buildDir)),
    await bundlePaintFirstLoader(buildDir, evaluationOrder),
  ];
}
