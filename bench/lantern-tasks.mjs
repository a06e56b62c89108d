#!/usr/bin/env node
// Diagnosis, not a measurement: why mobile TBT is what it is. Runs Lighthouse's mobile config once
// (or RUNS times) against the build and prints, per run, the simulated long tasks Lighthouse counted
// (what TBT is made of, start and duration in simulated ms) next to every observed main-thread task
// over 10 ms with what it did. Lantern, Lighthouse's simulator, multiplies each observed task by 4
// (by 2 if it lays out) and counts the part over 50 ms of each task it places after its simulated FCP.
// Usage: node bench/lantern-tasks.mjs [buildDir]   (build first: npm run bench -- --only=bytes)
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";

import { CHROMIUM_FLAGS, chromiumPath, LOOPBACK_ONLY_FLAGS } from "../scripts/chromium.mjs";

const chromePath = chromiumPath();
const chromeFlags = [...CHROMIUM_FLAGS, ...LOOPBACK_ONLY_FLAGS];
import { startAppServer } from "./lib/servers.mjs";

const WRAPPERS = new Set([
  "RunTask",
  "ThreadControllerImpl::RunTask",
  "Receive mojo message",
  "AsyncTask Run",
  "v8.callFunction",
  "TimerBase::run",
]);

const server = await startAppServer((process.argv[2] ?? ".builds/bench").replace(/\/+$/, ""), {});
const chrome = await chromeLauncher.launch({ chromePath, chromeFlags: [...chromeFlags, "--headless=new"] });
try {
  for (let run = 1; run <= Number(process.env.RUNS ?? 1); run++) {
    const { lhr, artifacts } = await lighthouse(`${server.url}/`, {
      port: chrome.port,
      onlyCategories: ["performance"],
      output: "json",
      logLevel: "error",
    });
    if (lhr.runtimeError) {
      console.log(`run ${run}: Lighthouse failed: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
      continue;
    }
    const audits = lhr.audits;
    const events = artifacts.Trace.traceEvents;
    const fcp = events.find((e) => e.name === "firstContentfulPaint");
    const main = events.find(
      (e) => e.name === "thread_name" && e.args?.name === "CrRendererMain" && e.pid === fcp.pid,
    );
    const ms = (id) => Math.round(audits[id].numericValue);
    console.log(
      `run ${run}: TBT ${ms("total-blocking-time")} ms, FCP ${ms("first-contentful-paint")} ms, ` +
        `LCP ${ms("largest-contentful-paint")} ms (simulated)`,
    );
    const simulated = audits["long-tasks"].details.items.map(
      (t) =>
        `${t.url.split("/").pop() || "document"} @${Math.round(t.startTime)} ${Math.round(t.duration)} ms`,
    );
    console.log(`  simulated long tasks: ${simulated.join(", ")}`);
    const tasks = events.filter(
      (e) => e.name === "RunTask" && e.pid === main.pid && e.tid === main.tid && e.dur > 10_000,
    );
    for (const task of tasks) {
      const parts = {};
      for (const e of events) {
        if (e.tid !== task.tid || e.pid !== task.pid || e === task || !(e.dur > 2000) || WRAPPERS.has(e.name))
          continue;
        if (e.ts < task.ts || e.ts > task.ts + task.dur) continue;
        parts[e.name] = Math.max(parts[e.name] ?? 0, Math.round(e.dur / 1000));
      }
      const top = Object.entries(parts)
        .sort((a, b) => b[1] - a[1])
        .slice(0, 5)
        .map(([name, dur]) => `${name} ${dur}`);
      console.log(
        `  observed @${Math.round((task.ts - fcp.ts) / 1000)} ms from FCP: ${Math.round(task.dur / 1000)} ms ` +
          `(x4 = ${Math.round(task.dur / 250)}) ${top.join(", ")}`,
      );
    }
  }
} finally {
  await chrome.kill();
  await server.stop();
}
