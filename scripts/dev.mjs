#!/usr/bin/env node
// `npm run dev` (`exec node scripts/dev.mjs`): one process that builds the app in development mode
// into .builds/dev (never build/ or public/build/, which `npm start` serves, whatever
// REMIX_BUILD_DIR says), rebuilds it on every change under app/, and serves it with live reload
// on 127.0.0.1 (server/dev.ts). SIGTERM/SIGINT stop the server and the watcher (decision 027).
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

import { bundle, bundlePaintFirstLoader } from "./bundle.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
export const DEV_BUILD_DIR = ".builds/dev";
const buildDir = path.join(root, DEV_BUILD_DIR);

process.env.NODE_ENV = "development";
// remix.config.js reads it: the development build has its own folder.
process.env.REMIX_BUILD_DIR = DEV_BUILD_DIR;
// PORT's default (3001) and MOCKS=true's URL and data folder follow from NODE_ENV=development, in
// app/lib/env.server.ts (developmentSource), read when server/dev.ts is imported below.

// The Remix classic compiler's own watcher (what `remix dev` and `remix watch` run), without their
// websocket servers on a second port of every interface: the page reloads through server/dev.ts.
const require = createRequire(import.meta.url);
const { readConfig } = require("@remix-run/dev/dist/config.js");
const { watch } = require("@remix-run/dev/dist/compiler/watch.js");
const { createFileWatchCache } = require("@remix-run/dev/dist/compiler/fileWatchCache.js");
const { logger } = require("@remix-run/dev/dist/tux/logger.js");

const serverBundle = await bundle("server/dev.ts", `${buildDir}/server/dev.mjs`);
await bundlePaintFirstLoader(buildDir);
const { startDevServer } = await import(pathToFileURL(serverBundle).href);

let server;
const fileWatchCache = createFileWatchCache();
const changed = (what) => (file) => {
  fileWatchCache.invalidateFile(file);
  console.log(`[dev] ${what} ${path.relative(root, file)}`);
};
const stopWatching = await watch(
  {
    config: await readConfig(root),
    options: { mode: "development", sourcemap: true },
    fileWatchCache,
    logger,
  },
  {
    onBuildFinish: async (_ctx, durationMs, succeeded) => {
      if (!succeeded) return console.error("[dev] the build failed: the page keeps the last build");
      console.log(`[dev] built in ${durationMs} ms`);
      await server?.reload();
    },
    onFileChanged: changed("changed"),
    onFileCreated: changed("created"),
    onFileDeleted: changed("deleted"),
  },
);
server = await startDevServer({ root, buildDir, onStop: stopWatching });
