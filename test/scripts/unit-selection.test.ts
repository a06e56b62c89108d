import { readFileSync } from "node:fs";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { root } from "../support/server-process.mjs";
import { UNIT_TESTS, unitTestFiles } from "../../vitest.unit.config";

/**
 * `npm run test:unit` keeps its promise (issue 24): no build, no browser, no server spawned. A
 * selected file importing what starts or reads one would break it, so none does.
 */

/** Imports that mean a build, a browser, a server or a child process. */
const IMPURE =
  /from "[^"]*(support\/(app-server|build-output|npm|fake-function|postgres)|e2e\/support|playwright-core|node:child_process)[^"]*"/;

describe("npm run test:unit", () => {
  const files = unitTestFiles();

  it("selects the pure suites: more than 25 files, this one among them", () => {
    expect(files.length).toBeGreaterThan(25);
    expect(files).toContain("test/scripts/unit-selection.test.ts");
    expect(files).toContain("test/lib/env.test.ts");
  });

  it("no selected file imports a server, a build, a browser or a child process", () => {
    const impure = files.filter((file) => IMPURE.test(readFileSync(join(root, file), "utf8")));
    expect(impure).toEqual([]);
  });

  it("is a check that would see one (the e2e suites and the HTTP ones)", () => {
    for (const file of [
      "test/e2e/contact-once.test.ts",
      "test/http/page.test.ts",
      "test/server/start.test.ts",
    ])
      expect(IMPURE.test(readFileSync(join(root, file), "utf8")), file).toBe(true);
  });

  it("every entry of the list selects at least one file", () => {
    expect(UNIT_TESTS.length).toBeGreaterThan(5);
    expect(unitTestFiles).not.toThrow();
  });

  it("is a script of package.json and in the README", () => {
    const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
      scripts: Record<string, string>;
    };
    expect(pkg.scripts["test:unit"]).toBe("vitest run --config vitest.unit.config.ts");
    expect(readFileSync(join(root, "README.md"), "utf8")).toContain("npm run test:unit");
  });
});
