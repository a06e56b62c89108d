#!/usr/bin/env node
// `npm start` (`exec node scripts/start.mjs`): serves the production build in this very process, so
// that the PID npm starts is the server's and a signal sent to npm reaches it (decision 027).
// REMIX_BUILD_DIR chooses the build folder, as for `npm run build`. Refuses, in one line, a
// missing build; server/production.ts refuses a development build and a bad configuration.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

import { productionBuildDir, serverBundlePath } from "./bundle.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const buildDir = productionBuildDir();
const buildName = path.relative(root, buildDir) || ".";
process.env.NODE_ENV = "production";

const missing = (file) =>
  `npm start: no production build (${path.relative(root, file)} is missing): run \`npm run build\` first.`;
const serverBuild = `${buildDir}/index.js`;
if (!existsSync(serverBuild)) {
  console.error(missing(serverBuild));
  process.exit(1);
}
// `npm run dev` writes a server build but not the production server's bundle: say which it is
// before complaining about the bundle. (server/production.ts checks the imported build's mode too.)
const mode = /\bmode = "(\w+)"/.exec(readFileSync(serverBuild, "utf8"))?.[1];
if (mode && mode !== "production") {
  console.error(
    `npm start: ${buildName}/index.js is a ${mode} build (\`npm run dev\` makes those): run \`npm run build\` first.`,
  );
  process.exit(1);
}
if (!existsSync(serverBundlePath(buildDir))) {
  console.error(missing(serverBundlePath(buildDir)));
  process.exit(1);
}

let server;
try {
  server = await import(pathToFileURL(serverBundlePath(buildDir)).href);
} catch (error) {
  // Loading reads the environment: a malformed value stops here, with every variable named.
  console.error(
    error instanceof Error && error.message.startsWith("Invalid server configuration")
      ? error.message
      : error,
  );
  process.exit(1);
}
await server.startProduction({ root, buildDir, buildName });
