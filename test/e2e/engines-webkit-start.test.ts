/**
 * WebKitWebDriver's session start can wait forever for a browser that never comes up (issue 25):
 * the WebKit adapter gives it a deadline, kills what it started, and fails once, with what the
 * driver said (never a silent retry). Here the browser is a stand-in that never answers.
 */
import { chmodSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { browserRequired } from "../../scripts/chromium.mjs";
import { webkitLauncher } from "./support/engines/webkit";

/** Live processes whose command line mentions `text` (zombies have none). */
function processesMentioning(text: string): number[] {
  return readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(text);
      } catch {
        return false;
      }
    })
    .map(Number);
}

const missing = webkitLauncher().missing();
if (missing && !browserRequired()) console.warn(`\n!!! WebKit is not installed (${missing}): SKIPPED.\n`);

describe.skipIf(missing !== null && !browserRequired())("WebKit's session start is bounded", () => {
  it("a browser that never starts fails the session at its deadline, with the driver's words, and leaves no process behind", async () => {
    const dir = mkdtempSync(join(tmpdir(), "never-starts-"));
    const browser = join(dir, "MiniBrowser");
    // Started by WebKitWebDriver with MiniBrowser's arguments, it never listens: the hang.
    writeFileSync(browser, "#!/bin/sh\nsleep 300\n");
    chmodSync(browser, 0o755);
    const launcher = webkitLauncher({ browser, policy: { deadlineMs: 1500 } });

    const failure = await launcher.open({ javaScript: true }).then(
      () => null,
      (error: unknown) => String(error),
    );

    expect(failure).toMatch(/the session start did not answer within 1500 ms; WebKitWebDriver said: \S/);
    expect(processesMentioning(dir), "stand-in browsers left running").toEqual([]);
  }, 60_000);
});
