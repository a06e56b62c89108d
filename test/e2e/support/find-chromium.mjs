// Where the browser tests find Chromium. Shared by `npm test` (test/run-all.mjs) and the e2e suites,
// so both agree on whether a browser exists. No browser is ever downloaded: Debian's `chromium`
// package (or whatever CHROME_PATH names) is the only source.
import { accessSync, constants, statSync } from "node:fs";
import { delimiter, join } from "node:path";

const NAMES = ["chromium", "chromium-browser"];

function isExecutableFile(path) {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * @param {NodeJS.ProcessEnv} [env]
 * @returns {{ path: string | null, reason: string }}
 */
export function findChromium(env = process.env) {
  const override = env.CHROME_PATH?.trim();
  if (override) {
    return isExecutableFile(override)
      ? { path: override, reason: `CHROME_PATH=${override}` }
      : { path: null, reason: `CHROME_PATH=${override} is not an executable file` };
  }
  for (const dir of (env.PATH ?? "").split(delimiter)) {
    if (!dir) continue;
    for (const name of NAMES) {
      const candidate = join(dir, name);
      if (isExecutableFile(candidate)) return { path: candidate, reason: `found ${candidate} on the PATH` };
    }
  }
  return { path: null, reason: `neither ${NAMES.join(" nor ")} is on the PATH and CHROME_PATH is unset` };
}

/** With CI=true or REQUIRE_BROWSER=1 a missing browser is a failure, not a skip. */
export function browserRequired(env = process.env) {
  return env.CI === "true" || env.CI === "1" || env.REQUIRE_BROWSER === "1" || env.REQUIRE_BROWSER === "true";
}
