#!/usr/bin/env node
// `npm test`: build the production app once, then run every vitest suite in one vitest run, so the
// output ends with vitest's own summary line.
// Browser suites need Chromium (decision 046), the cross-engine ones Firefox and WebKit too
// (scripts/engines.mjs): a missing one is skipped loudly, or fails with CI=true or REQUIRE_BROWSER=1.
// Extra arguments go to vitest (`npm test -- test/e2e`). SKIP_BUILD=1 reuses an existing build.
// REMIX_BUILD_DIR chooses the build folder (remix.config.js and test/support/app-server.ts read it).
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

import { browserRequired, findChromium } from "../scripts/chromium.mjs";
import { findFirefox, findWebKit } from "../scripts/engines.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));

function run(cmd, args, env) {
  const result = spawnSync(cmd, args, { stdio: "inherit", env, cwd: root });
  if (result.error) {
    console.error(`Could not run ${cmd}: ${result.error.message}`);
    return 1;
  }
  return result.status ?? 1;
}

function banner(lines) {
  const width = Math.max(...lines.map((line) => line.length)) + 4;
  const bar = "!".repeat(width);
  console.error(["", bar, ...lines.map((line) => `! ${line.padEnd(width - 4)} !`), bar, ""].join("\n"));
}

const env = { ...process.env };
const chromium = findChromium(env, { forTests: true });
const required = browserRequired(env);
let browserFailure = false;

if (chromium.path) {
  env.CHROME_PATH = chromium.path;
  delete env.E2E_SKIP_BROWSER;
  console.log(`Browser tests: Chromium ${chromium.reason}.`);
} else if (required) {
  browserFailure = true;
  banner([
    "NO CHROMIUM FOUND: the browser tests CANNOT run, and this run FAILS.",
    `(${chromium.reason})`,
    "CI=true or REQUIRE_BROWSER=1 makes the browser mandatory.",
    "Install it (apt-get install -y chromium-headless-shell) or set CHROME_PATH.",
  ]);
} else {
  env.E2E_SKIP_BROWSER = "1";
  banner([
    "NO CHROMIUM FOUND: THE BROWSER TESTS (test/e2e) ARE SKIPPED.",
    `(${chromium.reason})`,
    "Install it (apt-get install -y chromium-headless-shell) or set CHROME_PATH to run them.",
    "Set REQUIRE_BROWSER=1 (or CI=true) to make a missing browser a failure.",
  ]);
}

// Firefox and WebKit (decision 035): the cross-engine files skip a missing one, or fail with CI=true.
const firefox = findFirefox(env);
const webkit = findWebKit(env);
const missingEngines = [
  firefox.path ? null : `Firefox (${firefox.reason})`,
  webkit.driver && webkit.browser && webkit.xvfb ? null : `WebKit (${webkit.reason})`,
].filter(Boolean);
if (missingEngines.length === 0) {
  console.log(`Browser tests: Firefox ${firefox.reason}; WebKit: ${webkit.reason}.`);
} else if (required) {
  browserFailure = true;
  banner([
    `MISSING: ${missingEngines.join("; ")}.`,
    "Their cross-engine tests (test/e2e/engines-*.test.ts) FAIL with CI=true or REQUIRE_BROWSER=1.",
    "Install them: apt-get install -y firefox-esr webkit2gtk-driver xvfb",
  ]);
} else {
  banner([
    `MISSING: ${missingEngines.join("; ")}.`,
    "THEIR CROSS-ENGINE TESTS (test/e2e/engines-*.test.ts) ARE SKIPPED.",
    "Install them: apt-get install -y firefox-esr webkit2gtk-driver xvfb",
  ]);
}

if (env.SKIP_BUILD !== "1") {
  // scripts/build.mjs is `npm run build`: always a production build, whatever NODE_ENV the shell has.
  const buildStatus = run(process.execPath, [`${root}scripts/build.mjs`], env);
  if (buildStatus !== 0) {
    console.error(`The production build failed (exit ${buildStatus}); no tests were run.`);
    process.exit(buildStatus);
  }
}

// The run's own folder (TEST_RUN_DIR), new each run so that no run depends on what an earlier one left:
// - one V8 code cache (NODE_COMPILE_CACHE) for the few hundred Node processes of the run, which
//   compile the same modules (issue 39);
// - the Firefox profile the browser tests' sessions start from (test/e2e/support/engines/firefox.ts);
// - its TMPDIR, open to all as /tmp is (some tests run a process as nobody on files there): what a
//   test, a browser or a server leaves in a temporary folder goes with the run.
const runDir = mkdtempSync(join(tmpdir(), "npm-test-run-"));
const runTmp = join(runDir, "tmp");
mkdirSync(runTmp);
chmodSync(runDir, 0o755);
chmodSync(runTmp, 0o1777);
const testStatus = run(
  process.execPath,
  [`${root}node_modules/vitest/vitest.mjs`, "run", ...process.argv.slice(2)],
  { ...env, NODE_COMPILE_CACHE: join(runDir, "compile-cache"), TEST_RUN_DIR: runDir, TMPDIR: runTmp },
);
rmSync(runDir, { recursive: true, force: true });
process.exit(testStatus !== 0 ? testStatus : browserFailure ? 1 : 0);
