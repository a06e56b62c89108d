#!/usr/bin/env node
// `npm run leads -- list|retry|export`: runs the leads CLI that `npm run build` bundled
// (scripts/bundle.mjs), from REMIX_BUILD_DIR when set, as the server build is.
import { existsSync } from "node:fs";
import { pathToFileURL } from "node:url";

import { cliBundlePath } from "./bundle.mjs";

const bundle = cliBundlePath();
if (!existsSync(bundle)) {
  console.error(`leads: the CLI is not built (${bundle} is missing): run \`npm run build\` first.`);
  process.exit(2);
}
try {
  await import(pathToFileURL(bundle).href);
} catch (error) {
  // Loading reads the environment as the server does: a malformed value stops here, named.
  console.error(`leads: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(2);
}
