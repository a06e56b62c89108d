import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, describe, expect, it } from "vitest";

import { findProgram, firstOnPath, isExecutableFile } from "../../scripts/executables.mjs";

/**
 * How the tests find Chromium, Firefox, WebKitWebDriver, Xvfb and PostgreSQL: one rule for all
 * of them, as a shell would pick a program, with an override that is never second-guessed.
 */
const dir = mkdtempSync(join(tmpdir(), "executables-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function program(folder: string, name: string, mode = 0o755): string {
  mkdirSync(join(dir, folder), { recursive: true });
  const path = join(dir, folder, name);
  writeFileSync(path, "#!/bin/sh\n");
  chmodSync(path, mode);
  return path;
}

const browser = {
  variable: "BROWSER_PATH",
  names: ["browser-esr", "browser"],
  install: "apt-get install browser",
};

describe("scripts/executables.mjs", () => {
  it("a program is an executable regular file: not a folder, not a file without the x bit, not a missing path", () => {
    const runnable = program("kinds", "runnable");
    const plain = program("kinds", "plain", 0o644);
    mkdirSync(join(dir, "kinds", "folder"));
    expect(isExecutableFile(runnable)).toBe(true);
    expect(isExecutableFile(join(dir, "kinds", "folder"))).toBe(false);
    expect(isExecutableFile(join(dir, "kinds", "missing"))).toBe(false);
    // Even root passes X_OK only when some x bit is set; none is here.
    expect(isExecutableFile(plain)).toBe(false);
  });

  it("the PATH is read in its order, each folder for every name before the next folder; empty entries are skipped", () => {
    program("first", "browser");
    const inSecond = program("second", "browser-esr");
    mkdirSync(join(dir, "second", "browser"), { recursive: true });
    const PATH = ["", join(dir, "empty"), join(dir, "first"), join(dir, "second")].join(":");
    expect(firstOnPath(["browser-esr", "browser"], { PATH })).toBe(join(dir, "first", "browser"));
    expect(firstOnPath(["browser-esr"], { PATH })).toBe(inSecond);
    expect(firstOnPath(["browser-esr"], { PATH: "" })).toBeNull();
    expect(firstOnPath(["browser-esr"], {})).toBeNull();
  });

  it("an override is the only candidate: a wrong one says so and never falls back to the PATH", () => {
    const PATH = join(dir, "first");
    const chosen = program("chosen", "my-browser");
    expect(findProgram(browser, { PATH, BROWSER_PATH: ` ${chosen} ` })).toEqual({
      path: chosen,
      reason: `BROWSER_PATH=${chosen}`,
    });
    expect(findProgram(browser, { PATH, BROWSER_PATH: join(dir, "chosen") })).toEqual({
      path: null,
      reason: `BROWSER_PATH=${join(dir, "chosen")} is not an executable file`,
    });
    expect(findProgram(browser, { PATH, BROWSER_PATH: "  " }).path).toBe(join(dir, "first", "browser"));
  });

  it("without an override, the PATH's program, or a reason that names every name, the variable and the install", () => {
    expect(findProgram(browser, { PATH: join(dir, "first") })).toEqual({
      path: join(dir, "first", "browser"),
      reason: `found ${join(dir, "first", "browser")} on the PATH`,
    });
    expect(findProgram(browser, { PATH: join(dir, "empty") })).toEqual({
      path: null,
      reason:
        "neither browser-esr nor browser is on the PATH and BROWSER_PATH is unset (apt-get install browser)",
    });
  });
});
