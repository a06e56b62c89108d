// The one place that knows where the other two browser engines live on this machine (Chromium's is
// scripts/chromium.mjs): Debian's `firefox-esr` (Gecko), and Debian's `webkit2gtk-driver`
// (WebKitWebDriver, which drives WebKitGTK's MiniBrowser) on an Xvfb display (`xvfb`). Nothing is
// ever downloaded; FIREFOX_PATH and WEBKIT_WEBDRIVER_PATH override the search.
import { accessSync, constants, readdirSync, statSync } from "node:fs";
import { delimiter, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

function isExecutableFile(path) {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The first of `names` on the PATH, or null. */
function onPath(names, env) {
  for (const dir of (env.PATH ?? "").split(delimiter)) {
    if (!dir) continue;
    for (const name of names) {
      const candidate = join(dir, name);
      if (isExecutableFile(candidate)) return candidate;
    }
  }
  return null;
}

/**
 * FIREFOX_PATH when set, else `firefox-esr` or `firefox` on the PATH.
 * @returns {{ path: string | null, reason: string }}
 */
export function findFirefox(env = process.env) {
  const override = env.FIREFOX_PATH?.trim();
  if (override) {
    return isExecutableFile(override)
      ? { path: override, reason: `FIREFOX_PATH=${override}` }
      : { path: null, reason: `FIREFOX_PATH=${override} is not an executable file` };
  }
  const found = onPath(["firefox-esr", "firefox"], env);
  return found
    ? { path: found, reason: `found ${found} on the PATH` }
    : { path: null, reason: "neither firefox-esr nor firefox is on the PATH (apt-get install firefox-esr)" };
}

/** WebKitGTK's MiniBrowser, in its versioned library folder (webkit2gtk-4.1 on Debian 12). */
function findMiniBrowser() {
  for (const lib of ["/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib"]) {
    let names = [];
    try {
      names = readdirSync(lib);
    } catch {
      continue;
    }
    for (const name of names
      .filter((entry) => /^webkit(2)?gtk-\d/.test(entry))
      .sort()
      .reverse()) {
      const candidate = join(lib, name, "MiniBrowser");
      if (isExecutableFile(candidate)) return candidate;
    }
  }
  return null;
}

/**
 * WebKitWebDriver, the MiniBrowser it starts, and Xvfb for the display MiniBrowser needs.
 * @returns {{ driver: string | null, browser: string | null, xvfb: string | null, reason: string }}
 */
export function findWebKit(env = process.env) {
  const override = env.WEBKIT_WEBDRIVER_PATH?.trim();
  const driver = override ? (isExecutableFile(override) ? override : null) : onPath(["WebKitWebDriver"], env);
  const browser = findMiniBrowser();
  const xvfb = onPath(["Xvfb"], env);
  const missing = [
    driver ? null : "WebKitWebDriver (apt-get install webkit2gtk-driver)",
    browser ? null : "WebKitGTK's MiniBrowser (apt-get install webkit2gtk-driver)",
    xvfb ? null : "Xvfb (apt-get install xvfb)",
  ].filter(Boolean);
  return {
    driver,
    browser,
    xvfb,
    reason: missing.length ? `missing ${missing.join(", ")}` : `${driver} driving ${browser} on Xvfb`,
  };
}

/** Whether every engine beside Chromium can run here; says what each found. */
export function otherEnginesReady(env = process.env) {
  const firefox = findFirefox(env);
  const webkit = findWebKit(env);
  console.log(`Firefox: ${firefox.reason}`);
  console.log(`WebKit: ${webkit.reason}`);
  return Boolean(firefox.path && webkit.driver && webkit.browser && webkit.xvfb);
}

// `node scripts/engines.mjs check` (.ci/run): exit 0 when Firefox and WebKit are both installed.
if (
  process.argv[1] &&
  resolve(process.argv[1]) === fileURLToPath(import.meta.url) &&
  process.argv[2] === "check"
)
  process.exit(otherEnginesReady() ? 0 : 1);
