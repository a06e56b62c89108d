// Budgets (they gate a release: the run exits non-zero when one is missed) and the
// table that prints them next to the observations (figures reported, never gated).

/** 1 KB = 1000 bytes: the stricter reading of "KB" in issue 5. */
export const KB = 1000;

export const BUDGETS = {
  jsGzip: 110 * KB,
  cssGzip: 20 * KB,
  htmlGzip: 40 * KB,
  // Issue 12: the home document is compressed once, with brotli at its best quality.
  htmlBrServed: 12.5 * KB,
  // Issue 12: GET / served from memory holds at least 0.8 x the requests per second of /healthz.
  homeToHealthzRatio: 0.8,
  // Decision 032: keeping every lead in a database (SQLite or PostgreSQL) before the function is
  // called may cost a valid contact POST at most twice the p99 latency of the last release with
  // file-based storage (b806f33), at 50 connections, median of the per-round ratios (store section).
  storePostP99Ratio: 2,
  thirdPartyRequests: 0,
  otherRenderBlocking: 0,
  lighthouseScore: 100,
  mobileLcpMs: 1500,
  mobileTbtMs: 50,
  mobileCls: 0,
  // Issue 26: the page's mobile TBT at most 50 ms over a bare HTML document's, medians of the same
  // run (the floor moves with the machine), and no main-thread task after the first paint longer
  // than 50 ms as observed (unthrottled) in Lighthouse's trace.
  mobileTbtOverBareMs: 50,
  longestObservedTaskMs: 50,
};

/**
 * @typedef {{ kind: "budget" | "observation", section: string, metric: string, value: unknown,
 *   display: string, budget: string, pass: boolean | null }} Row
 */

/**
 * A row the run is judged by. `value` null means it could not be measured: a miss.
 * @param {string} section @param {string} metric @param {number | null | undefined} value
 * @param {"<=" | ">=" | "="} op @param {number} limit @param {(value: number) => string} [format]
 * @returns {Row}
 */
export function budgetRow(section, metric, value, op, limit, format = (v) => String(v)) {
  const pass =
    value !== null &&
    value !== undefined &&
    (op === "<=" ? value <= limit : op === ">=" ? value >= limit : value === limit);
  const display = value === null || value === undefined ? "not measured" : format(value);
  return { kind: "budget", section, metric, value, display, budget: `${op} ${format(limit)}`, pass };
}

/**
 * A figure reported for information.
 * @param {string} section @param {string} metric @param {unknown} value @param {string} [display]
 * @returns {Row}
 */
export function observationRow(section, metric, value, display = String(value)) {
  return { kind: "observation", section, metric, value, display, budget: "", pass: null };
}

/** @param {number} bytes */
export const kb = (bytes) => `${(bytes / KB).toFixed(1)} KB`;
/** @param {number} value */
export const ms = (value) => `${Math.round(value)} ms`;

/** @param {Row[]} rows */
export function missedBudgets(rows) {
  return rows.filter((row) => row.kind === "budget" && !row.pass);
}

/** A fixed-width text table, budgets marked as such. @param {Row[]} rows */
export function formatTable(rows) {
  const header = ["", "section", "metric", "value", "budget", "status"];
  const body = rows.map((row) => [
    row.kind === "budget" ? "BUDGET" : "obs",
    row.section,
    row.metric,
    row.display,
    row.budget,
    row.kind === "budget" ? (row.pass ? "ok" : "MISSED") : "",
  ]);
  const widths = header.map((_, i) =>
    Math.max(header[i].length, ...body.map((cells) => String(cells[i]).length)),
  );
  const line = (cells) =>
    cells
      .map((cell, i) => String(cell).padEnd(widths[i]))
      .join("  ")
      .trimEnd();
  return [line(header), line(widths.map((w) => "-".repeat(w))), ...body.map(line)].join("\n");
}
