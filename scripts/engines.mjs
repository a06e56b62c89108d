// The one place that knows where the other two browser engines live on this machine (Chromium's is
// scripts/chromium.mjs): Debian's `firefox-esr` (Gecko), and Debian's `webkit2gtk-driver`
// (WebKitWebDriver, which drives WebKitGTK's MiniBrowser) on an Xvfb display (`xvfb`). Nothing is
// ever downloaded; FIREFOX_PATH and WEBKIT_WEBDRIVER_PATH override the search.
import { readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

import { findProgram, firstOnPath, isExecutableFile } from "./executables.mjs";

/**
 * FIREFOX_PATH when set, else `firefox-esr` or `firefox` on the PATH.
 * @returns {{ path: string | null, reason: string }}
 */
export function findFirefox(env = process.env) {
  return findProgram(
    { variable: "FIREFOX_PATH", names: ["firefox-esr", "firefox"], install: "apt-get install firefox-esr" },
    env,
  );
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
  const driver = findProgram(
    {
      variable: "WEBKIT_WEBDRIVER_PATH",
      names: ["WebKitWebDriver"],
      install: "apt-get install webkit2gtk-driver",
    },
    env,
  ).path;
  const browser = findMiniBrowser();
  const xvfb = firstOnPath(["Xvfb"], env);
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
