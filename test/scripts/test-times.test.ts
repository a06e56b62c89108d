import { describe, expect, it } from "vitest";

import { formatTimes, summarizeTimes, tierOf } from "../../scripts/test-times.mjs";

/** What `npm test` ends with (issue 39): each tier's time and the ten slowest files. */
describe("npm test's times", () => {
  const unit = new Set(["test/lib/env.test.ts"]);

  it("names a file's tier by what it needs: unit, browser, processes, http", () => {
    expect(tierOf("test/lib/env.test.ts", unit)).toBe("unit");
    expect(tierOf("test/e2e/faq.test.ts", unit)).toBe("browser");
    expect(tierOf("test/ops/history-sqlite.test.ts", unit)).toBe("processes");
    expect(tierOf("test/cli/leads.test.ts", unit)).toBe("processes");
    expect(tierOf("test/http/page.test.ts", unit)).toBe("http");
  });

  it("gives each tier its span (wall clock) and its sum (files one after another), longest span first", () => {
    const summary = summarizeTimes(
      [
        { file: "test/e2e/a.test.ts", start: 0, end: 10_000, cpu: 4 },
        { file: "test/e2e/b.test.ts", start: 5_000, end: 30_000, cpu: 11.5 },
        { file: "test/lib/env.test.ts", start: 0, end: 200, cpu: 0.1 },
      ],
      unit,
    );
    expect(summary.tiers).toEqual([
      { tier: "browser", files: 2, span: 30_000, sum: 35_000, cpu: 15.5 },
      { tier: "unit", files: 1, span: 200, sum: 200, cpu: 0.1 },
    ]);
    expect(summary.slowest.map((entry: { file: string }) => entry.file)).toEqual([
      "test/e2e/b.test.ts",
      "test/e2e/a.test.ts",
      "test/lib/env.test.ts",
    ]);
  });

  it("keeps the ten slowest files, and prints them in seconds", () => {
    const records = Array.from({ length: 12 }, (_, index) => ({
      file: `test/http/f${index}.test.ts`,
      start: 0,
      end: (index + 1) * 1000,
    }));
    const summary = summarizeTimes(records, unit);
    expect(summary.slowest).toHaveLength(10);
    expect(summary.slowest[0]).toEqual({ file: "test/http/f11.test.ts", ms: 12_000, cpu: 0 });
    const lines = formatTimes(summary);
    expect(lines[1]).toMatch(/^ {2}http +12 files +span +12\.0 s +sum +78\.0 s +CPU +0\.0 s$/);
    expect(lines).toContain("The 10 slowest files (wall, CPU):");
    expect(lines.at(-1)).toMatch(/test\/http\/f2\.test\.ts +3\.0 s +0\.0 s$/);
  });

  it("says whether the CPU column counts every process a file started or only a floor", () => {
    const summary = summarizeTimes([{ file: "test/e2e/a.test.ts", start: 0, end: 1000, cpu: 2 }], unit);
    expect(formatTimes(summary)[0]).toContain("CPU: every process the file started, browsers included");
    expect(formatTimes(summary, { cpuFloor: true })[0]).toContain("CPU: a floor");
  });

  it("says so when no file ran, rather than printing an empty table", () => {
    expect(formatTimes(summarizeTimes([], unit))).toEqual(["Times: no test file ran."]);
  });
});
