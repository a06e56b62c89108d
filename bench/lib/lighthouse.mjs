// Lighthouse 12 through its Node API against the loopback server: the default mobile
// config (simulated throttling: slow 4G, 4x CPU slowdown) and the desktop config.
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import desktopConfig from "lighthouse/core/config/desktop-config.js";

import { chromeFlags, chromePath } from "./chromium.mjs";

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
    runWarnings: lhr.runWarnings ?? [],
    runtimeError: lhr.runtimeError?.message ?? null,
  };
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
    perRun: runs.map(({ scores: s, lcp, tbt, cls, benchmarkIndex }) => ({
      scores: s,
      lcp,
      tbt,
      cls,
      benchmarkIndex,
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
    chromePath,
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
            return summarise(result.lhr);
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
