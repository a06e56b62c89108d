#!/usr/bin/env node
// Diagnosis, not a measurement: loads `/` in Chromium with the CPU slowed 4× (as Lighthouse's
// mobile config assumes) and prints every main-thread task over 20 ms with what it spent its
// time on (style, layout, parsing, script).
// Usage: node bench/trace.mjs [buildDir] [--extra-css="css appended to the stylesheet, to try a fix"]
import { chromium } from "playwright-core";

import { CHROMIUM_FLAGS, chromiumPath, LOOPBACK_ONLY_FLAGS } from "../scripts/chromium.mjs";

const chromePath = chromiumPath();
const chromeFlags = [...CHROMIUM_FLAGS, ...LOOPBACK_ONLY_FLAGS];
import { startAppServer } from "./lib/servers.mjs";

const positional = process.argv.slice(2).filter((arg) => !arg.startsWith("--"));
const extraCss = process.argv.find((arg) => arg.startsWith("--extra-css="))?.slice("--extra-css=".length);
const server = await startAppServer((positional[0] ?? ".builds/bench").replace(/\/+$/, ""), {});
const browser = await chromium.launch({ executablePath: chromePath, args: chromeFlags });
try {
  const context = await browser.newContext({
    viewport: { width: 412, height: 823 },
    isMobile: true,
    deviceScaleFactor: 1.75,
  });
  const page = await context.newPage();
  if (extraCss) {
    await page.route("**/*.css", async (route) => {
      const response = await route.fetch();
      await route.fulfill({ response, body: `${await response.text()}\n${extraCss}` });
    });
  }
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
  // Like TBT: the part over 50 ms of every task after first contentful paint (here measured, not simulated).
  const fcp = paints.find((paint) => paint.name === "firstContentfulPaint")?.ts ?? start;
  const blocking = tasks
    .filter((task) => task.ts >= fcp)
    .reduce((sum, task) => sum + Math.max(0, task.dur / 1000 - 50), 0);
  const totals = {};
  for (const e of events) {
    if (
      ["UpdateLayoutTree", "Layout", "Paint", "ParseHTML", "v8.evaluateModule", "FunctionCall"].includes(
        e.name,
      ) &&
      e.dur
    ) {
      totals[e.name] = Math.round((totals[e.name] ?? 0) + e.dur / 1000);
    }
  }
  // Work counted in elements and layout objects does not depend on how busy the machine is.
  let styledElements = 0;
  let laidOutObjects = 0;
  for (const e of events) {
    if (e.name === "UpdateLayoutTree")
      styledElements += e.args?.elementCount ?? e.args?.data?.elementCount ?? 0;
    if (e.name === "Layout")
      laidOutObjects += e.args?.endData?.layoutObjects ?? e.args?.beginData?.dirtyObjects ?? 0;
  }
  console.log(
    `blocking time after FCP (4x CPU): ${Math.round(blocking)} ms; totals ${JSON.stringify(totals)}`,
  );
  console.log(`work: ${styledElements} elements styled, ${laidOutObjects} layout objects laid out`);
  if (process.argv.includes("--dump-args")) {
    for (const name of ["UpdateLayoutTree", "Layout"])
      console.log(name, JSON.stringify(events.find((e) => e.name === name)?.args));
  }
  if (process.argv.includes("--summary")) process.exit(0);
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
