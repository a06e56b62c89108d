#!/usr/bin/env node
// `npm start` (`exec node scripts/start.mjs`): serves the production build in this very process, so
// that the PID npm starts is the server's and a signal sent to npm reaches it (decision 027).
// REMIX_BUILD_DIR chooses the build folder, as for `npm run build`. Refuses, in one line, a
// missing build; server/production.ts refuses a development build and a bad configuration.
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

import { productionBuildDir, serverBundlePath } from "./bundle.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const buildDir = productionBuildDir();
const buildName = path.relative(root, buildDir) || ".";
process.env.NODE_ENV = "production";

for (const file of [`${buildDir}/index.js`, serverBundlePath(buildDir)]) {
  if (!existsSync(file)) {
    console.error(
      `npm start: no production build (${path.relative(root, file)} is missing): run \`npm run build\` first.`,
    );
    process.exit(1);
  }
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
