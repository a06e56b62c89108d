// The one place that knows which Chromium runs here and how: the tests (test/run-all.mjs and
// test/e2e), the benchmark (bench/) and the image script (scripts/make-images.mjs) all read it.
// No browser is ever downloaded: Debian's `chromium` package, or whatever CHROME_PATH names. The
// browser tests run on Debian's `chromium-headless-shell` (the same Chromium build, without the
// browser's windows and tabs: decision 046) when it is installed.
import { findProgram } from "./executables.mjs";

/** What lets the system Chromium run headless as root on this closed network. */
export const CHROMIUM_FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/**
 * Every host name resolves to nothing but loopback, so a third-party request fails on this
 * machine instead of leaving it (the benchmark counts such requests instead of sending them).
 */
export const LOOPBACK_ONLY_FLAGS = [
  "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost",
];

const NAMES = ["chromium", "chromium-browser"];
const HEADLESS_SHELL = "chromium-headless-shell";

/**
 * CHROME_PATH when set, else `chromium` or `chromium-browser` on the PATH; for the browser tests
 * (`forTests`), `chromium-headless-shell` first: a context with its page costs a tenth of the CPU,
 * a page load with JavaScript a third (decision 046).
 * @param {NodeJS.ProcessEnv} [env]
 * @param {{ forTests?: boolean }} [options]
 * @returns {{ path: string | null, reason: string }}
 */
export function findChromium(env = process.env, { forTests = false } = {}) {
  return findProgram(
    {
      variable: "CHROME_PATH",
      names: forTests ? [HEADLESS_SHELL, ...NAMES] : NAMES,
      install: `apt-get install ${forTests ? HEADLESS_SHELL : "chromium"}`,
    },
    env,
  );
}

/** The Chromium to run, or an error that says how to get one. */
export function chromiumPath(env = process.env) {
  const found = findChromium(env);
  if (!found.path) {
    throw new Error(
      `No Chromium: ${found.reason}. Install it (apt-get install chromium) or set CHROME_PATH.`,
    );
  }
  return found.path;
}

/** With CI=true or REQUIRE_BROWSER=1 a missing browser is a failure, not a skip. */
export function browserRequired(env = process.env) {
  return env.CI === "true" || env.CI === "1" || env.REQUIRE_BROWSER === "1" || env.REQUIRE_BROWSER === "true";
}

/** Whether a request stays on this machine (non-network schemes such as data: count as local). */
export function isLoopback(url) {
  const { protocol, hostname } = new URL(url);
  if (protocol !== "http:" && protocol !== "https:" && protocol !== "ws:" && protocol !== "wss:") return true;
  return hostname === "127.0.0.1" || hostname === "localhost" || hostname === "[::1]" || hostname === "::1";
}
