#!/usr/bin/env node
// Diagnosis, not a measurement: loads `/` in Chromium with the CPU slowed 4× (as Lighthouse's
// mobile config assumes) and prints every main-thread task over 20 ms with what it spent its
// time on (style, layout, parsing, script). Usage: node bench/trace.mjs [buildDir]
import { chromium } from "playwright-core";

import { chromeFlags, chromePath } from "./lib/chromium.mjs";
import { startAppServer } from "./lib/servers.mjs";

const server = await startAppServer((process.argv[2] ?? ".builds/bench").replace(/\/+$/, ""), {});
const browser = await chromium.launch({ executablePath: chromePath, args: chromeFlags });
try {
  const context = await browser.newContext({
    viewport: { width: 412, height: 823 },
    isMobile: true,
    deviceScaleFactor: 1.75,
  });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
  await browser.startTracing(page, {
    categories: [
      "devtools.timeline",
      "disabled-by-default-devtools.timeline",
      "v8.execute",
      "blink.user_timing",
    ],
  });
  await page.goto(`${server.url}/`, { waitUntil: "load" });
  await page.waitForTimeout(3000);
  const trace = JSON.parse((await browser.stopTracing()).toString());
  const events = trace.traceEvents ?? trace;
  const start = events.find((e) => e.name === "navigationStart")?.ts ?? events[0].ts;
  const paints = events.filter(
    (e) => e.name === "firstContentfulPaint" || e.name === "largestContentfulPaint::Candidate",
  );
  for (const paint of paints) console.log(`${paint.name} @${Math.round((paint.ts - start) / 1000)} ms`);
  const tasks = events.filter((e) => e.name === "RunTask" && e.dur > 20_000).sort((a, b) => a.ts - b.ts);
  for (const task of tasks) {
    const inside = events.filter(
      (e) =>
        e.tid === task.tid &&
        e.ts >= task.ts &&
        e.ts + (e.dur ?? 0) <= task.ts + task.dur &&
        e.dur > 3000 &&
        e.name !== "RunTask",
    );
    const parts = {};
    for (const e of inside) {
      const key = [e.name, e.args?.data?.url?.split("/").pop(), e.args?.data?.functionName]
        .filter(Boolean)
        .join(" ");
      parts[key] = Math.max(parts[key] ?? 0, Math.round(e.dur / 1000));
    }
    console.log(
      `task @${Math.round((task.ts - start) / 1000)} ms: ${Math.round(task.dur / 1000)} ms ${JSON.stringify(parts)}`,
    );
  }
} finally {
  await browser.close();
  await server.stop();
}
