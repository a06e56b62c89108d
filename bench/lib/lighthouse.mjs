// Lighthouse 12 through its Node API against the loopback server: the default mobile
// config (simulated throttling: slow 4G, 4x CPU slowdown) and the desktop config.
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import desktopConfig from "lighthouse/core/config/desktop-config.js";
import { MainThreadTasks } from "lighthouse/core/lib/tracehouse/main-thread-tasks.js";
import { TraceProcessor } from "lighthouse/core/lib/tracehouse/trace-processor.js";

import { CHROMIUM_FLAGS, chromiumPath, LOOPBACK_ONLY_FLAGS } from "../../scripts/chromium.mjs";

const chromeFlags = [...CHROMIUM_FLAGS, ...LOOPBACK_ONLY_FLAGS];

export const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"];

/** @param {Array<number | null | undefined>} values @returns {number | null} */
export function median(values) {
  const numbers = /** @type {number[]} */ (values.filter((v) => typeof v === "number" && !Number.isNaN(v)));
  const sorted = numbers.sort((a, b) => a - b);
  if (sorted.length === 0) return null;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** The first few items an audit lists, each as one short line. @param {any} audit */
export function foundItems(audit, limit = 3) {
  const items = Array.isArray(audit.details?.items) ? audit.details.items : [];
  return items.slice(0, limit).map((item) => {
    const text = [item.source, item.description, item.url ?? item.sourceLocation?.url]
      .filter((part) => typeof part === "string" && part)
      .join(" ");
    return (text || JSON.stringify(item)).slice(0, 240);
  });
}

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
          // What the audit found, so a failure can be acted on without the report (the console's
          // error text, the offending URL...).
          found: foundItems(audit),
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
 * What the renderer's main thread did after the first contentful paint, as observed (wall time,
 * unthrottled: Lighthouse's simulated throttling never slows the real load) in the trace of one
 * run: the time of every top-level task that started at or after the paint, and the longest of them
 * with what it did (Lighthouse's task group, and the script it is attributed to, if any). Issue 26
 * asks for this next to the simulated TBT, which multiplies the same tasks by 2 or 4.
 * @param {Array<{ parent?: unknown, startTime: number, duration: number, group?: { id: string }, attributableURLs?: string[], event?: { name: string }, children?: any[] }>} tasks times in ms, on the paint's clock
 * @param {number} fcpMs
 */
export function observedAfterFirstPaint(tasks, fcpMs) {
  const after = tasks.filter((task) => !task.parent && task.startTime >= fcpMs);
  // The first render: the longest task before the paint that laid the page out (Lantern places it
  // after its simulated first paint and counts it twice over; issue 26's "first layout").
  const firstRender = tasks
    .filter((task) => !task.parent && task.startTime < fcpMs && laysOut(task))
    .reduce((top, task) => Math.max(top, task.duration), 0);
  const longest = after.reduce((top, task) => (task.duration > (top?.duration ?? -1) ? task : top), null);
  const script = longest?.attributableURLs?.at(-1)?.split("/").pop();
  return {
    totalMs: after.reduce((sum, task) => sum + task.duration, 0),
    tasks: after.length,
    longestMs: longest?.duration ?? 0,
    longestWhat: longest ? [longest.group?.id ?? "other", script].filter(Boolean).join(" ") : "none",
    firstRenderMs: firstRender,
  };
}

/** Whether a task (or a task inside it) laid the page out. @param {{ event?: { name: string }, children?: any[] }} task */
function laysOut(task) {
  return task.event?.name === "Layout" || (task.children ?? []).some(laysOut);
}

/**
 * `observedAfterFirstPaint` for a Lighthouse trace (Lighthouse's own trace processing finds the main
 * frame's renderer thread and its tasks). Null when the trace has no contentful paint.
 * @param {{ traceEvents: unknown[] }} trace
 */
export function mainThreadAfterFirstPaint(trace) {
  try {
    const processed = TraceProcessor.processTrace(trace);
    const navigation = TraceProcessor.processNavigation(processed);
    const fcpMs = navigation.timings.firstContentfulPaint;
    if (fcpMs === undefined) return null;
    const tasks = MainThreadTasks.getMainThreadTasks(
      processed.mainThreadEvents,
      processed.frames,
      processed.timestamps.traceEnd,
      processed.timestamps.timeOrigin,
    );
    return observedAfterFirstPaint(tasks, fcpMs);
  } catch {
    return null;
  }
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
  const observed = run.observed
    ? `; observed: first render ${Math.round(run.observed.firstRenderMs ?? Number.NaN)} ms, after FCP ${Math.round(run.observed.totalMs)} ms in ${run.observed.tasks} tasks, longest ${Math.round(run.observed.longestMs)} ms (${run.observed.longestWhat})`
    : "";
  return `TBT ${Math.round(run.tbt ?? Number.NaN)} ms; ${commit}; simulated long tasks: ${tasks.join(", ") || "none"}${observed}`;
}

/** Median of each figure over the runs (each figure on its own). @param {any[]} runs */
export function medianOfRuns(runs) {
  /** @type {Record<string, number | null>} */
  const scores = {};
  for (const id of CATEGORIES) scores[id] = median(runs.map((run) => run.scores[id]));
  const failing = new Map();
  for (const run of runs)
    for (const audit of run.failing) failing.set(`${audit.category}/${audit.id}`, audit);
  /** @param {(run: any) => number | null | undefined} read */
  const of = (read) => median(runs.map(read));
  return {
    runs: runs.length,
    scores,
    lcp: of((run) => run.lcp),
    fcp: of((run) => run.fcp),
    tbt: of((run) => run.tbt),
    cls: of((run) => run.cls),
    si: of((run) => run.si),
    lcpElement: runs.find((run) => run.lcpElement)?.lcpElement ?? null,
    benchmarkIndex: of((run) => run.benchmarkIndex),
    failing: [...failing.values()],
    observedAfterFcpMs: of((run) => run.observed?.totalMs),
    longestObservedTaskMs: of((run) => run.observed?.longestMs),
    firstRenderMs: of((run) => run.observed?.firstRenderMs),
    perRun: runs.map(({ scores, lcp, tbt, cls, benchmarkIndex, commitMs, longTasks, observed }) => {
      return { scores, lcp, tbt, cls, benchmarkIndex, commitMs, longTasks, observed };
    }),
  };
}

/**
 * The order of the mobile runs when references are measured in the same run: the page and each
 * reference take turns, and which goes first rotates from one index to the next, so that none
 * always meets the machine in the same state (the throughput section does the same with its
 * references). With one reference the two simply alternate, and which goes first too.
 * @template {string} T
 * @param {number} runs @param {T[]} [targets]
 * @returns {Array<{ target: T, index: number }>}
 */
export function interleavedOrder(runs, targets = /** @type {T[]} */ (["page", "reference"])) {
  const order = [];
  for (let index = 0; index < runs; index += 1) {
    for (let slot = 0; slot < targets.length; slot += 1)
      order.push({ target: targets[(slot + index) % targets.length], index });
  }
  return order;
}

/**
 * `runs` mobile and `runs` desktop Lighthouse runs in one headless Chromium. With `references`
 * ([{ key, name, url }]), the same number of mobile runs of each reference URL (performance
 * only), interleaved with the page's (`interleavedOrder`); each one's medians come back as
 * `results[key]`.
 */
export async function runLighthouse(
  url,
  runs,
  log = () => {},
  saveReport = null,
  { mobileOnly = false, references = [] } = {},
) {
  const chrome = await chromeLauncher.launch({
    chromePath: chromiumPath(),
    chromeFlags: ["--headless=new", ...chromeFlags],
    logLevel: "silent",
  });
  /** One recorded run of `target` with `config`, retried as `runUntilRecorded` says. */
  const measure = async (target, config, label, categories, failedAttempts) => {
    const started = Date.now();
    const summary = await runUntilRecorded(
      async () => {
        const result = await lighthouse(
          target,
          { port: chrome.port, output: "json", logLevel: "error", onlyCategories: categories },
          config,
        );
        if (!result) throw new Error("Lighthouse returned no result");
        if (saveReport) saveReport(label, result.lhr);
        const trace = result.artifacts?.Trace;
        return {
          ...summarise(result.lhr),
          commitMs: navigationCommitMs(trace?.traceEvents ?? []),
          observed: trace ? mainThreadAfterFirstPaint(trace) : null,
        };
      },
      (failure) => {
        failedAttempts.push(failure);
        log(`  lighthouse ${label}: not recorded (${failure}), running it again`);
      },
    );
    const observed = summary.observed
      ? ` longest task after FCP ${Math.round(summary.observed.longestMs)} ms observed`
      : "";
    log(
      `  lighthouse ${label}: ${categories.map((c) => summary.scores[c]).join("/")} ` +
        `LCP ${Math.round(summary.lcp)} ms TBT ${Math.round(summary.tbt)} ms CLS ${summary.cls}${observed} (${Date.now() - started} ms)`,
    );
    return summary;
  };
  try {
    const targets = [{ key: "page", url, categories: CATEGORIES }, ...references];
    const runsOf = Object.fromEntries(targets.map(({ key }) => [key, { runs: [], failedAttempts: [] }]));
    const byKey = Object.fromEntries(targets.map((target) => [target.key, target]));
    for (const { target, index } of interleavedOrder(runs, Object.keys(byKey))) {
      const { url: address, categories = ["performance"] } = byKey[target];
      const label = `${target === "page" ? "mobile" : target}-${index + 1}`;
      runsOf[target].runs.push(
        await measure(address, undefined, label, categories, runsOf[target].failedAttempts),
      );
    }
    const summary = ({ runs: list, failedAttempts }) => ({ ...medianOfRuns(list), failedAttempts });
    const results = { mobile: summary(runsOf.page) };
    for (const ref of references) results[ref.key] = { ...summary(runsOf[ref.key]), name: ref.name };
    if (!mobileOnly) {
      const desktop = { runs: [], failedAttempts: [] };
      for (let index = 0; index < runs; index += 1)
        desktop.runs.push(
          await measure(url, desktopConfig, `desktop-${index + 1}`, CATEGORIES, desktop.failedAttempts),
        );
      results.desktop = summary(desktop);
    }
    return results;
  } finally {
    await chrome.kill();
  }
}
