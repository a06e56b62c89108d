// Lighthouse 12 through its Node API against the loopback server: the default mobile
// config (simulated throttling: slow 4G, 4x CPU slowdown) and the desktop config.
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import desktopConfig from "lighthouse/core/config/desktop-config.js";

import { CHROMIUM_FLAGS, chromiumPath, LOOPBACK_ONLY_FLAGS } from "../../scripts/chromium.mjs";

const chromeFlags = [...CHROMIUM_FLAGS, ...LOOPBACK_ONLY_FLAGS];

export const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"];

/** @param {Array<number | null | undefined>} values @returns {number | null} */
export function median(values) {
  const sorted = /** @type {number[]} */ (
    values.filter((v) => typeof v === "number" && !Number.isNaN(v))
  ).sort((a, b) => a - b);
  if (sorted.length === 0) return null;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * @typedef {{ performance: number | null, accessibility: number | null, "best-practices": number | null, seo: number | null }} Scores
 */

/** The figures of one Lighthouse report, plus every weighted audit that did not pass. @param {any} lhr */
export function summarise(lhr) {
  /** @type {Record<string, number | null>} */
  const scores = {};
  const failing = [];
  for (const id of CATEGORIES) {
    const category = lhr.categories[id];
    scores[id] = category?.score == null ? null : Math.round(category.score * 100);
    for (const ref of category?.auditRefs ?? []) {
      const audit = lhr.audits[ref.id];
      if (ref.weight > 0 && audit && audit.score !== null && audit.score < 1) {
        failing.push({
          category: id,
          id: ref.id,
          score: audit.score,
          title: audit.title,
          value: audit.displayValue ?? "",
        });
      }
    }
  }
  const numeric = (id) => lhr.audits[id]?.numericValue ?? null;
  return {
    scores,
    lcp: numeric("largest-contentful-paint"),
    fcp: numeric("first-contentful-paint"),
    tbt: numeric("total-blocking-time"),
    cls: numeric("cumulative-layout-shift"),
    si: numeric("speed-index"),
    lcpElement:
      lhr.audits["largest-contentful-paint-element"]?.details?.items?.[0]?.items?.[0]?.node?.snippet ?? null,
    failing,
    // Lighthouse's own measure of this machine's speed at the time (a mid-range phone is ~1000).
    benchmarkIndex: lhr.environment?.benchmarkIndex ?? null,
    // What mobile TBT is made of: the simulated main-thread tasks of 50 ms or more (Lantern's).
    longTasks: (lhr.audits["long-tasks"]?.details?.items ?? []).map((task) => ({
      what: task.url?.split("/").pop() || "document",
      start: Math.round(task.startTime),
      duration: Math.round(task.duration),
    })),
    runWarnings: lhr.runWarnings ?? [],
    runtimeError: lhr.runtimeError?.message ?? null,
  };
}

/**
 * How long (wall time, ms) the renderer's main thread spent committing the navigation to `/`:
 * creating the document and its script contexts before a byte of HTML is parsed. It is Chromium's
 * and Lighthouse's work, not the page's, yet Lantern multiplies it by 4 like any task and leaves it
 * out of its FCP estimate; with the parse chunks before the first render, it decides how much of
 * that render counts towards mobile TBT (docs/performance.md). Null when the trace has no painted
 * navigation.
 * @param {Array<{ name: string, ph?: string, pid: number, tid: number, ts: number, dur?: number }>} traceEvents
 */
export function navigationCommitMs(traceEvents) {
  const paint = traceEvents.find((event) => event.name === "firstContentfulPaint");
  if (!paint) return null;
  const commit = traceEvents
    .filter(
      (event) =>
        event.name === "DocumentLoader::CommitNavigation" &&
        event.ph === "X" &&
        event.pid === paint.pid &&
        event.ts < paint.ts,
    )
    .sort((a, b) => (b.dur ?? 0) - (a.dur ?? 0))[0];
  if (!commit) return null;
  const commitEnd = commit.ts + (commit.dur ?? 0);
  const task = traceEvents
    .filter(
      (event) =>
        event.ph === "X" &&
        /RunTask$/.test(event.name) &&
        event.pid === commit.pid &&
        event.tid === commit.tid &&
        event.ts <= commit.ts &&
        event.ts + (event.dur ?? 0) >= commitEnd,
    )
    .sort((a, b) => (b.dur ?? 0) - (a.dur ?? 0))[0];
  return ((task ?? commit).dur ?? 0) / 1000;
}

/**
 * Runs one Lighthouse measurement until it is recorded. A run that ends in a runtime error
 * (NO_NAVSTART, NO_FCP... : the trace of a loaded machine, not the page) measured nothing, and
 * Lighthouse's own advice is to run it again; it is retried up to `retries` times and each
 * failure is reported. A page that fails every attempt still fails the benchmark.
 * @param {() => Promise<{ runtimeError: string | null }>} attempt
 * @param {(failure: string) => void} onFailure
 */
export async function runUntilRecorded(attempt, onFailure, retries = 2) {
  for (let tried = 0; ; tried += 1) {
    const summary = await attempt();
    if (!summary.runtimeError) return summary;
    if (tried >= retries) throw new Error(`Lighthouse: ${summary.runtimeError}`);
    onFailure(summary.runtimeError);
  }
}

/**
 * One mobile run's TBT next to what it is made of: the observed navigation commit task (Lantern
 * counts it ×4) and the simulated long tasks, as "what@start duration" in simulated ms.
 * @param {{ tbt: number | null, commitMs?: number | null, longTasks?: Array<{ what: string, start: number, duration: number }> }} run
 */
export function tbtAnatomy(run) {
  const commit =
    run.commitMs == null
      ? "navigation commit not in the trace"
      : `navigation commit ${Math.round(run.commitMs)} ms observed (${Math.round(run.commitMs * 4)} simulated)`;
  const tasks = (run.longTasks ?? []).map((task) => `${task.what}@${task.start} ${task.duration}`);
  return `TBT ${Math.round(run.tbt ?? Number.NaN)} ms; ${commit}; simulated long tasks: ${tasks.join(", ") || "none"}`;
}

/** Median of each figure over the runs (each figure on its own). @param {any[]} runs */
export function medianOfRuns(runs) {
  /** @type {Record<string, number | null>} */
  const scores = {};
  for (const id of CATEGORIES) scores[id] = median(runs.map((run) => run.scores[id]));
  const failing = new Map();
  for (const run of runs)
    for (const audit of run.failing) failing.set(`${audit.category}/${audit.id}`, audit);
  return {
    runs: runs.length,
    scores,
    lcp: median(runs.map((run) => run.lcp)),
    fcp: median(runs.map((run) => run.fcp)),
    tbt: median(runs.map((run) => run.tbt)),
    cls: median(runs.map((run) => run.cls)),
    si: median(runs.map((run) => run.si)),
    lcpElement: runs.find((run) => run.lcpElement)?.lcpElement ?? null,
    benchmarkIndex: median(runs.map((run) => run.benchmarkIndex)),
    failing: [...failing.values()],
    perRun: runs.map(({ scores: s, lcp, tbt, cls, benchmarkIndex, commitMs, longTasks }) => ({
      scores: s,
      lcp,
      tbt,
      cls,
      benchmarkIndex,
      commitMs,
      longTasks,
    })),
  };
}

/** `runs` mobile and `runs` desktop Lighthouse runs in one headless Chromium. */
export async function runLighthouse(
  url,
  runs,
  log = () => {},
  saveReport = null,
  { mobileOnly = false } = {},
) {
  const chrome = await chromeLauncher.launch({
    chromePath: chromiumPath(),
    chromeFlags: ["--headless=new", ...chromeFlags],
    logLevel: "silent",
  });
  try {
    const results = {};
    const configs = [
      ["mobile", undefined],
      ["desktop", desktopConfig],
    ];
    for (const [name, config] of mobileOnly ? configs.slice(0, 1) : configs) {
      const perRun = [];
      const failedAttempts = [];
      for (let i = 0; i < runs; i += 1) {
        const started = Date.now();
        const summary = await runUntilRecorded(
          async () => {
            const result = await lighthouse(
              url,
              { port: chrome.port, output: "json", logLevel: "error", onlyCategories: CATEGORIES },
              config,
            );
            if (!result) throw new Error("Lighthouse returned no result");
            if (saveReport) saveReport(`${name}-${i + 1}`, result.lhr);
            return {
              ...summarise(result.lhr),
              commitMs: navigationCommitMs(result.artifacts?.Trace?.traceEvents ?? []),
            };
          },
          (failure) => {
            failedAttempts.push(failure);
            log(`  lighthouse ${name} #${i + 1}: not recorded (${failure}), running it again`);
          },
        );
        perRun.push(summary);
        log(
          `  lighthouse ${name} #${i + 1}: ${CATEGORIES.map((c) => summary.scores[c]).join("/")} ` +
            `LCP ${Math.round(summary.lcp)} ms TBT ${Math.round(summary.tbt)} ms CLS ${summary.cls} (${Date.now() - started} ms)`,
        );
      }
      results[name] = { ...medianOfRuns(perRun), failedAttempts };
    }
    return results;
  } finally {
    await chrome.kill();
  }
}
