// What `npm run flakes` (scripts/flakes.mjs) makes of vitest's JSON reports: pure functions, so
// that the unit suite tests them without starting anything.

/**
 * The failed tests of one vitest JSON report, as "file > suite > test" with their first message.
 * File names are given relative to `root` (the checkout).
 * @param {{ testResults?: { name: string, message?: string, status?: string, assertionResults?: { fullName?: string, title: string, status: string, failureMessages?: string[] }[] }[] }} report
 * @returns {{ test: string, message: string }[]}
 */
export function failuresOf(report, root = "") {
  const failures = [];
  for (const file of report.testResults ?? []) {
    const name = file.name.startsWith(root) ? file.name.slice(root.length) : file.name;
    const failed = (file.assertionResults ?? []).filter((result) => result.status === "failed");
    for (const result of failed)
      failures.push({
        test: `${name} > ${result.fullName ?? result.title}`,
        message: firstLine(result.failureMessages?.[0] ?? ""),
      });
    // A file that failed without a failed test: it did not load, or an error escaped its tests.
    if (failed.length === 0 && file.status === "failed")
      failures.push({ test: `${name} (the file itself)`, message: firstLine(file.message ?? "") });
  }
  return failures;
}

const firstLine = (text) =>
  text
    // eslint-disable-next-line no-control-regex -- the terminal colours vitest puts in messages
    .replace(/\x1b\[[0-9;]*m/g, "")
    .split("\n")
    .find((line) => line.trim())
    ?.trim()
    .slice(0, 200) ?? "";

/**
 * Each failure once, the most frequent first, with the runs it failed in.
 * @param {{ test: string, message: string }[][]} runs the failures of each run
 * @returns {{ test: string, count: number, runs: number[], message: string }[]}
 */
export function tally(runs) {
  const byTest = new Map();
  runs.forEach((failures, index) => {
    for (const { test, message } of failures) {
      const entry = byTest.get(test) ?? { test, count: 0, runs: [], message };
      if (!entry.runs.includes(index + 1)) {
        entry.count += 1;
        entry.runs.push(index + 1);
      }
      byTest.set(test, entry);
    }
  });
  return [...byTest.values()].sort((a, b) => b.count - a.count || a.test.localeCompare(b.test));
}

/** The report's lines: one per failing test, "count/runs  test  (runs …): message". */
export function formatTally(entries, runCount) {
  if (entries.length === 0) return `No test failed in ${runCount} run${runCount === 1 ? "" : "s"}.`;
  return entries
    .map(
      (entry) =>
        `${entry.count}/${runCount}  ${entry.test}  (run${entry.runs.length === 1 ? "" : "s"} ${entry.runs.join(", ")})` +
        (entry.message ? `\n      ${entry.message}` : ""),
    )
    .join("\n");
}
