// Lighthouse through its Node API against the loopback server: the default mobile config
// (simulated throttling: slow 4G, 4x CPU slowdown) and the desktop config.
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import desktopConfig from "lighthouse/core/config/desktop-config.js";
import { MainThreadTasks } from "lighthouse/core/lib/tracehouse/main-thread-tasks.js";
import { TraceProcessor } from "lighthouse/core/lib/tracehouse/trace-processor.js";

import { CHROMIUM_FLAGS, chromiumPath, LOOPBACK_ONLY_FLAGS } from "../../scripts/chromium.mjs";

export const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"];

/** The median of the numbers among `values`; null when there are none. */
export function median(values) {
  const sorted = values.filter((v) => typeof v === "number" && !Number.isNaN(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return null;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** The first few items an audit lists, each as one short line. */
export function foundItems(audit, limit = 3) {
  const items = Array.isArray(audit.details?.items) ? audit.details.items : [];
  return items.slice(0, limit).map((item) => {
    const text = [item.source, item.description, item.url ?? item.sourceLocation?.url]
      .filter((part) => typeof part === "string" && part)
      .join(" ");
    return (text || JSON.stringify(item)).slice(0, 240);
  });
}

/** The figures of one Lighthouse report, plus every weighted audit that did not pass. */
export function summarise(lhr) {
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
    runtimeError: lhr.runtimeError?.message ?? null,
  };
}

/** The longest of trace events (by duration). */
const longestEvent = (events) => events.sort((a, b) => (b.dur ?? 0) - (a.dur ?? 0))[0];

/**
 * How long (wall time, ms) the renderer's main thread spent committing the navigation to `/`:
 * creating the document and its script contexts before a byte of HTML is parsed. Chromium's and
 * Lighthouse's work, not the page's, yet Lantern multiplies it by 4 like any task: it decides how
 * much of the first render counts towards mobile TBT. Null when the trace has no painted navigation.
 */
export function navigationCommitMs(events) {
  const paint = events.find((event) => event.name === "firstContentfulPaint");
  const isCommit = (event) => event.name === "DocumentLoader::CommitNavigation" && event.ph === "X";
  const commit =
    paint && longestEvent(events.filter((e) => isCommit(e) && e.pid === paint.pid && e.ts < paint.ts));
  if (!commit) return null;
  const onItsThread = (event) => event.ph === "X" && event.pid === commit.pid && event.tid === commit.tid;
  const holdsIt = (event) =>
    event.ts <= commit.ts && event.ts + (event.dur ?? 0) >= commit.ts + (commit.dur ?? 0);
  const task = longestEvent(events.filter((e) => onItsThread(e) && /RunTask$/.test(e.name) && holdsIt(e)));
  return ((task ?? commit).dur ?? 0) / 1000;
}

/**
 * What the renderer's main thread did after the first contentful paint, as observed (wall time,
 * unthrottled: Lighthouse's simulated throttling never slows the real load) in one run's trace
 * (`tasks`, times in ms on the paint's clock): the time of every top-level task that started at or
 * after the paint, the longest with what it did (its task group, and its script if any), and the
 * first render: the longest task before the paint that laid the page out.
 */
export function observedAfterFirstPaint(tasks, fcpMs) {
  const topLevel = tasks.filter((task) => !task.parent);
  const after = topLevel.filter((task) => task.startTime >= fcpMs);
  const renders = topLevel.filter((task) => task.startTime < fcpMs && laysOut(task));
  const longest = after.reduce((top, task) => (task.duration > (top?.duration ?? -1) ? task : top), null);
  const script = longest?.attributableURLs?.at(-1)?.split("/").pop();
  return {
    totalMs: after.reduce((sum, task) => sum + task.duration, 0),
    tasks: after.length,
    longestMs: longest?.duration ?? 0,
    longestWhat: longest ? [longest.group?.id ?? "other", script].filter(Boolean).join(" ") : "none",
    firstRenderMs: Math.max(0, ...renders.map((task) => task.duration)),
  };
}

/** Whether a task (or a task inside it) laid the page out. */
const laysOut = (task) => task.event?.name === "Layout" || (task.children ?? []).some(laysOut);

/** `observedAfterFirstPaint` of a Lighthouse trace, by Lighthouse's own trace processing; null without a paint. */
function mainThreadAfterFirstPaint(trace) {
  try {
    const processed = TraceProcessor.processTrace(trace);
    const fcpMs = TraceProcessor.processNavigation(processed).timings.firstContentfulPaint;
    const { mainThreadEvents, frames, timestamps } = processed;
    const tasks = MainThreadTasks.getMainThreadTasks(
      mainThreadEvents,
      frames,
      timestamps.traceEnd,
      timestamps.timeOrigin,
    );
    return fcpMs === undefined ? null : observedAfterFirstPaint(tasks, fcpMs);
  } catch {
    return null;
  }
}

/**
 * Runs one Lighthouse measurement until it is recorded. A run that ends in a runtime error
 * (NO_NAVSTART, NO_FCP...: the trace of a loaded machine, not the page) measured nothing, and
 * Lighthouse's advice is to run it again: up to `retries` times, each failure reported. A page
 * that fails every attempt still fails the benchmark.
 * @param {() => Promise<{ runtimeError: string | null }>} attempt @param {(failure: string) => void} onFailure
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
 * One mobile run's TBT next to what it is made of: the observed navigation commit (Lantern counts
 * it ×4), the simulated long tasks ("what@start duration", simulated ms), and what was observed.
 */
export function tbtAnatomy(run) {
  const round = (value) => Math.round(value ?? Number.NaN);
  const commit =
    run.commitMs == null
      ? "navigation commit not in the trace"
      : `navigation commit ${round(run.commitMs)} ms observed (${round(run.commitMs * 4)} simulated)`;
  const tasks = (run.longTasks ?? []).map((task) => `${task.what}@${task.start} ${task.duration}`);
  const seen = run.observed;
  const observed = seen
    ? `; observed: first render ${round(seen.firstRenderMs)} ms, after FCP ${round(seen.totalMs)} ms in ` +
      `${seen.tasks} tasks, longest ${round(seen.longestMs)} ms (${seen.longestWhat})`
    : "";
  return `TBT ${round(run.tbt)} ms; ${commit}; simulated long tasks: ${tasks.join(", ") || "none"}${observed}`;
}

/** The median of each figure over the runs (each figure on its own), and each run's. */
export function medianOfRuns(runs) {
  const of = (read) => median(runs.map(read));
  const failing = new Map(
    runs.flatMap((run) => run.failing.map((audit) => [`${audit.category}/${audit.id}`, audit])),
  );
  return {
    runs: runs.length,
    scores: Object.fromEntries(CATEGORIES.map((id) => [id, of((run) => run.scores[id])])),
    lcp: of((run) => run.lcp),
    fcp: of((run) => run.fcp),
    tbt: of((run) => run.tbt),
    cls: of((run) => run.cls),
    si: of((run) => run.si),
    benchmarkIndex: of((run) => run.benchmarkIndex),
    lcpElement: runs.find((run) => run.lcpElement)?.lcpElement ?? null,
    failing: [...failing.values()],
    longestObservedTaskMs: of((run) => run.observed?.longestMs),
    perRun: runs.map(({ scores, lcp, tbt, cls, benchmarkIndex, commitMs, longTasks, observed }) => {
      return { scores, lcp, tbt, cls, benchmarkIndex, commitMs, longTasks, observed };
    }),
  };
}

/**
 * The order in which `targets` take turns over `runs` rounds: which goes first rotates from one
 * round to the next, so that none always meets the machine in the same state.
 */
export function interleavedOrder(runs, targets = ["page", "reference"]) {
  return Array.from({ length: runs }, (_, index) =>
    targets.map((_, slot) => ({ target: targets[(slot + index) % targets.length], index })),
  ).flat();
}

/**
 * `runs` mobile and (unless `mobileOnly`) `runs` desktop Lighthouse runs in one headless Chromium.
 * With `references` ([{ key, name, url }]), as many mobile runs of each (performance only),
 * interleaved with the page's; each one's medians come back as `results[key]`.
 */
export async function runLighthouse(url, runs, log, saveReport, { mobileOnly = false, references = [] }) {
  const chromeFlags = ["--headless=new", ...CHROMIUM_FLAGS, ...LOOPBACK_ONLY_FLAGS];
  const chrome = await chromeLauncher.launch({ chromePath: chromiumPath(), chromeFlags, logLevel: "silent" });
  /** One recorded run, retried as `runUntilRecorded` says. */
  const measure = async ({ url: target, categories = ["performance"], config }, label, failedAttempts) => {
    const flags = { port: chrome.port, output: "json", logLevel: "error", onlyCategories: categories };
    const attempt = async () => {
      const { lhr, artifacts } = await lighthouse(target, flags, config);
      saveReport?.(label, lhr);
      const trace = artifacts?.Trace;
      const observed = trace ? mainThreadAfterFirstPaint(trace) : null;
      return { ...summarise(lhr), commitMs: navigationCommitMs(trace?.traceEvents ?? []), observed };
    };
    const summary = await runUntilRecorded(attempt, (failure) => {
      failedAttempts.push(failure);
      log(`  lighthouse ${label}: not recorded (${failure}), running it again`);
    });
    const scores = categories.map((c) => summary.scores[c]).join("/");
    log(
      `  lighthouse ${label}: ${scores} LCP ${Math.round(summary.lcp)} ms TBT ${Math.round(summary.tbt)} ms CLS ${summary.cls}`,
    );
    return summary;
  };
  try {
    const targets = {
      page: { url, categories: CATEGORIES },
      ...Object.fromEntries(references.map((ref) => [ref.key, ref])),
    };
    if (!mobileOnly) targets.desktop = { url, categories: CATEGORIES, config: desktopConfig };
    const runsOf = Object.fromEntries(
      Object.keys(targets).map((key) => [key, { runs: [], failedAttempts: [] }]),
    );
    const mobileTargets = Object.keys(targets).filter((key) => key !== "desktop");
    const order = [
      ...interleavedOrder(runs, mobileTargets),
      ...(mobileOnly ? [] : interleavedOrder(runs, ["desktop"])),
    ];
    for (const { target, index } of order) {
      const label = `${target === "page" ? "mobile" : target}-${index + 1}`;
      runsOf[target].runs.push(await measure(targets[target], label, runsOf[target].failedAttempts));
    }
    const results = Object.fromEntries(
      Object.entries(runsOf).map(([key, { runs: list, failedAttempts }]) => [
        key,
        { ...medianOfRuns(list), failedAttempts },
      ]),
    );
    const { page: mobile, ...others } = results;
    return { mobile, ...others };
  } finally {
    await chrome.kill();
  }
}
