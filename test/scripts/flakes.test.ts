import { fileURLToPath } from "node:url";

import { describe, expect, it } from "vitest";

import { failuresOf, formatTally, tally } from "../../scripts/flakes-report.mjs";

const root = fileURLToPath(new URL("../../", import.meta.url));

/** `npm run flakes` (issue 35): what it reads from each run, and how it counts failures across runs. */

const report = (failed: string[], fileFailed: string[] = []) => ({
  testResults: [
    {
      name: `${root}test/e2e/menu.test.ts`,
      status: failed.length ? "failed" : "passed",
      assertionResults: [
        {
          title: "opens",
          fullName: "menu opens",
          status: failed.includes("opens") ? "failed" : "passed",
          failureMessages: ["\u001b[31mAssertionError: timed out waiting for the menu\u001b[39m\n    at x"],
        },
        {
          title: "closes",
          fullName: "menu closes",
          status: failed.includes("closes") ? "failed" : "passed",
          failureMessages: ["Error: closed"],
        },
      ],
    },
    ...fileFailed.map((name) => ({
      name: `${root}${name}`,
      status: "failed",
      message: "SyntaxError: nope",
      assertionResults: [],
    })),
  ],
});

describe("npm run flakes", () => {
  it("reads each failed test of a run with its first message line, and a file that failed on its own", () => {
    expect(failuresOf(report(["opens"], ["test/http/broken.test.ts"]), root)).toEqual([
      {
        test: "test/e2e/menu.test.ts > menu opens",
        message: "AssertionError: timed out waiting for the menu",
      },
      { test: "test/http/broken.test.ts (the file itself)", message: "SyntaxError: nope" },
    ]);
    expect(failuresOf(report([]))).toEqual([]);
  });

  it("prints each failure once, with how many runs it failed in and which, the most frequent first", () => {
    const runs = [report(["opens"]), report([]), report(["opens", "closes"]), report(["opens"])].map((run) =>
      failuresOf(run, root),
    );
    const entries = tally(runs);
    expect(entries.map((entry) => [entry.test, entry.count, entry.runs])).toEqual([
      ["test/e2e/menu.test.ts > menu opens", 3, [1, 3, 4]],
      ["test/e2e/menu.test.ts > menu closes", 1, [3]],
    ]);
    expect(formatTally(entries, 4)).toBe(
      "3/4  test/e2e/menu.test.ts > menu opens  (runs 1, 3, 4)\n      AssertionError: timed out waiting for the menu\n" +
        "1/4  test/e2e/menu.test.ts > menu closes  (run 3)\n      Error: closed",
    );
    expect(formatTally([], 5)).toBe("No test failed in 5 runs.");
  });
});
