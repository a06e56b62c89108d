#!/usr/bin/env node
// Diagnosis, not a measurement: which main-thread tasks after the first paint are long, and which
// later part (decision 036) each one renders. Loads the page on a phone viewport with tracing on,
// stamps each part's switch to `content-visibility: visible` into the trace (a mutation observer
// calling console.timeStamp), and prints every renderer task over 8 ms with the part it follows and
// what it did. Given two builds, loads them alternately (the machine's speed drifts within minutes)
// and prints, per build, the medians of the longest task after the first paint and of the first
// render's longest task. The tracing itself slows every task a little: compare builds, not figures.
// Usage: node bench/part-frames.mjs [--quiet] [buildDir] [otherBuildDir]   (RUNS=n loads of each,
// default 4; --quiet prints only the summary)
/* global MutationObserver, HTMLElement, document -- the init script runs in the page */
import { chromium } from "playwright-core";

import { CHROMIUM_FLAGS, chromiumPath, LOOPBACK_ONLY_FLAGS } from "../scripts/chromium.mjs";
import { startAppServer } from "./lib/servers.mjs";

const quiet = process.argv.includes("--quiet");
const positional = process.argv.slice(2).filter((arg) => !arg.startsWith("--"));
const builds = (positional.length ? positional : [".builds/bench"]).map((dir) => dir.replace(/\/+$/, ""));
const runs = Number(process.env.RUNS ?? 4);
const PHONE = {
  viewport: { width: 412, height: 823 },
  isMobile: true,
  hasTouch: true,
  deviceScaleFactor: 1.75,
};
// What a task did, by the trace events worth naming.
const NAMED = [
  "UpdateLayoutTree",
  "Layout",
  "PrePaint",
  "Paint",
  "Layerize",
  "Commit",
  "ParseHTML",
  "EvaluateScript",
  "FunctionCall",
  "FireIdleCallback",
  "EventDispatch",
  "MinorGC",
  "MajorGC",
];

/** Every renderer main-thread task over 8 ms, relative to the first contentful paint. */
function longTasks(traceEvents) {
  const paint = traceEvents.filter((event) => event.name === "firstContentfulPaint").at(-1);
  if (!paint) throw new Error("no first contentful paint in the trace");
  const thread = traceEvents.find(
    (event) =>
      event.pid === paint.pid &&
      event.ph === "M" &&
      event.name === "thread_name" &&
      event.args.name === "CrRendererMain",
  );
  const events = traceEvents
    .filter((event) => event.pid === paint.pid && event.tid === thread?.tid)
    .sort((a, b) => a.ts - b.ts);
  let part = "";
  const tasks = [];
  for (const task of events.filter((event) => event.name === "RunTask" && event.ph === "X")) {
    const inside = events.filter((event) => event.ts >= task.ts && event.ts <= task.ts + task.dur);
    const stamps = inside
      .filter((event) => event.name === "TimeStamp")
      .map((event) => event.args.data.message);
    if (stamps.length) part = stamps.join(", ");
    if (task.dur < 8000) continue;
    const did = {};
    for (const event of inside)
      if (event !== task && event.ph === "X" && NAMED.includes(event.name))
        did[event.name] = (did[event.name] ?? 0) + event.dur / 1000;
    tasks.push({
      at: (task.ts - paint.ts) / 1000,
      ms: task.dur / 1000,
      part: stamps.length ? `renders ${part}` : part ? `after ${part}` : "",
      did: Object.entries(did)
        .sort((a, b) => b[1] - a[1])
        .slice(0, 5)
        .map(([name, ms]) => `${name} ${ms.toFixed(1)}`)
        .join(", "),
    });
  }
  return tasks;
}

const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];
const servers = [];
const browser = await chromium.launch({
  executablePath: chromiumPath(),
  args: [...CHROMIUM_FLAGS, ...LOOPBACK_ONLY_FLAGS],
});
const summary = new Map(builds.map((dir) => [dir, { after: [], before: [] }]));
try {
  for (const dir of builds) servers.push(await startAppServer(dir, {}));
  for (let run = 0; run < runs; run++) {
    for (const [index, dir] of builds.entries()) {
      const context = await browser.newContext(PHONE);
      await context.addInitScript(() => {
        new MutationObserver((records) => {
          for (const record of records)
            if (record.target instanceof HTMLElement && record.target.style.contentVisibility === "visible")
              console.timeStamp(`part ${record.target.id || record.target.tagName.toLowerCase()}`);
        }).observe(document, { attributes: true, attributeFilter: ["style"], subtree: true });
      });
      const page = await context.newPage();
      await browser.startTracing(page, {
        categories: ["devtools.timeline", "disabled-by-default-devtools.timeline"],
      });
      await page.goto(`${servers[index].url}/`, { waitUntil: "load" });
      await page.waitForTimeout(3000);
      const tasks = longTasks(JSON.parse((await browser.stopTracing()).toString()).traceEvents);
      await context.close();
      const after = tasks.filter((task) => task.at >= 0);
      const before = tasks.filter((task) => task.at < 0);
      summary.get(dir).after.push(Math.max(0, ...after.map((task) => task.ms)));
      summary.get(dir).before.push(Math.max(0, ...before.map((task) => task.ms)));
      if (quiet) continue;
      console.log(`${dir}, load ${run + 1}: tasks over 8 ms (ms from the first contentful paint, duration)`);
      for (const task of tasks)
        console.log(
          `  ${task.at.toFixed(0).padStart(6)} ${task.ms.toFixed(1).padStart(6)} ms  ${task.part.padEnd(26)} ${task.did}`,
        );
    }
  }
} finally {
  await browser.close();
  for (const server of servers) await server.stop();
}
for (const [dir, { after, before }] of summary)
  console.log(
    `${dir}: longest task after FCP, median ${median(after).toFixed(0)} ms (${after.map((ms) => ms.toFixed(0)).join(" / ")}); ` +
      `longest before FCP, median ${median(before).toFixed(0)} ms (${before.map((ms) => ms.toFixed(0)).join(" / ")})`,
  );
