#!/usr/bin/env node
// `npm run build`: the production build, exactly as served, whatever NODE_ENV the shell has (a build
// made under another NODE_ENV compiles JSX for React's development runtime, which the production
// server cannot render). Then marks the scripts of a first visit for eager compilation (decision 022)
// and bundles the server and the leads CLI next to the server build (scripts/bundle.mjs), and
// writes the home page as files beside it (server/home-document.ts).
// REMIX_BUILD_DIR chooses the output folder, as in remix.config.js; `npm run dev` never writes here.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";

import { bundleProductionPrograms, serverBundlePath } from "./bundle.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const outDir = process.env.REMIX_BUILD_DIR?.replace(/\/+$/, "");
const serverDir = `${root}${outDir ?? "build"}`;
const assetsDir = `${root}${outDir ? `${outDir}/assets` : "public/build"}`;

/**
 * V8's explicit compile hint (Chrome 136+): every function in a file that starts with this
 * comment is compiled while the file streams in, off the main thread, instead of on first call.
 * React DOM's bundle is one large function, and compiling it lazily cost a 20-30 ms main-thread
 * task just as the page became interactive. Other engines ignore the comment.
 */
export const COMPILE_HINT = "//# allFunctionsCalledOnLoad\n";

/** Every script Remix's manifest loads for `/`: the entry, the root and the index route, with their imports. */
export function firstVisitScripts(manifest) {
  const routes = ["root", "routes/_index"].map((id) => manifest.routes[id]);
  return [
    ...new Set([manifest.entry, ...routes].flatMap((module) => [module.module, ...(module.imports ?? [])])),
  ];
}

/** The browser manifest of the build in `serverDir` / `assetsDir`. */
export function readManifest(dirs = { serverDir, assetsDir }) {
  const version = readFileSync(`${dirs.serverDir}/version.txt`, "utf8").trim();
  const source = readFileSync(`${dirs.assetsDir}/manifest-${version.toUpperCase()}.js`, "utf8");
  return JSON.parse(source.slice(source.indexOf("{"), source.lastIndexOf("}") + 1));
}

/** Where a `/build/...` URL of the manifest lies on disk. */
export function assetFile(url, dirs = { assetsDir }) {
  return `${dirs.assetsDir}/${url.replace(/^\/build\//, "")}`;
}

/** The modules a built browser module imports statically (`import"/build/…"`, `from"/build/…"`; not `import("…")`). */
export function staticImports(code) {
  return [...code.matchAll(/\b(?:from|import)\s*"(\/build\/[^"]+)"/g)].map((match) => match[1]);
}

/**
 * The first visit's modules in dependency order, leaves first, without the entry (decision 036).
 * The paint-first loader evaluates them one per task before Remix's bootstrap, so that no single
 * task evaluates React, React DOM, Remix and the routes together; the entry is left to the
 * bootstrap, which must have set Remix's globals before it runs (it hydrates at once).
 * `importsOf(url)` lists a module's static imports.
 */
export function evaluationOrder(manifest, importsOf) {
  const order = [];
  const seen = new Set();
  const visit = (url) => {
    if (seen.has(url)) return;
    seen.add(url);
    for (const dependency of importsOf(url)) visit(dependency);
    order.push(url);
  };
  for (const url of firstVisitScripts(manifest)) visit(url);
  return order.filter((url) => url !== manifest.entry.module);
}

function addCompileHints() {
  const scripts = firstVisitScripts(readManifest());
  for (const url of scripts) {
    const file = assetFile(url);
    if (!existsSync(file)) throw new Error(`The manifest names ${url}, but ${file} does not exist.`);
    const code = readFileSync(file, "utf8");
    if (!code.startsWith(COMPILE_HINT)) writeFileSync(file, COMPILE_HINT + code);
  }
  return scripts.length;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const result = spawnSync(process.execPath, [`${root}node_modules/@remix-run/dev/dist/cli.js`, "build"], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, NODE_ENV: "production" },
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
  console.log(`compile hints: ${addCompileHints()} first-visit scripts`);
  const order = evaluationOrder(readManifest(), (url) => staticImports(readFileSync(assetFile(url), "utf8")));
  const programs = await bundleProductionPrograms(serverDir, { evaluationOrder: order });
  console.log(
    `server, leads CLI, paint-first loader: ${programs.map((file) => file.slice(root.length)).join(", ")}`,
  );
  // The browser build's text files compressed once, and the home page and its success variant made
  // once as files beside the build (decision 041), by the server bundle itself, in production mode,
  // with this shell's SITE_URL and GA_MEASUREMENT_ID.
  const prerender = spawnSync(
    process.execPath,
    [
      "--input-type=module",
      "-e",
      `const server = await import(${JSON.stringify(pathToFileURL(serverBundlePath(serverDir)).href)});
       await server.finishBuild({ root: ${JSON.stringify(root)}, buildDir: ${JSON.stringify(serverDir)} });`,
    ],
    { cwd: root, stdio: "inherit", env: { ...process.env, NODE_ENV: "production" } },
  );
  if (prerender.status !== 0) {
    console.error("The home page could not be made: the build cannot serve its page.");
    process.exit(prerender.status ?? 1);
  }
}
