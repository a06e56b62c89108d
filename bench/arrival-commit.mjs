#!/usr/bin/env node
// Diagnosis, not a measurement: what the page's Cross-Origin-Opener-Policy costs its navigation
// commit (decision 037). Lighthouse opens every page from the tab's initial about:blank, where a
// document without COOP can reuse the tab's warm renderer and one with COOP needs a new browsing
// context group (a fresh renderer). A visitor arrives from another site, where Chromium's site
// isolation gives the page a fresh renderer either way. This script loads the page both ways, with
// the policy and with the same response minus that one header (a loopback proxy drops it),
// interleaved, and prints the renderer's commit task (the task holding
// DocumentLoader::CommitNavigation) and V8's context creation inside it (LocalWindowProxy::Initialize).
// Usage: node bench/arrival-commit.mjs [buildDir]   (RUNS=n, default 6; build first: npm run build)
import http from "node:http";

import { chromium } from "playwright-core";

import { CHROMIUM_FLAGS, chromiumPath, LOOPBACK_ONLY_FLAGS } from "../scripts/chromium.mjs";
import { startAppServer } from "./lib/servers.mjs";

/** The app's responses, through a loopback proxy that drops the `drop` headers. */
function proxyTo(target, drop) {
  const upstream = new URL(target);
  const server = http.createServer((request, response) => {
    const forward = http.request(
      {
        host: upstream.hostname,
        port: upstream.port,
        path: request.url,
        method: request.method,
        headers: request.headers,
      },
      (answer) => {
        const headers = { ...answer.headers };
        for (const name of drop) delete headers[name];
        response.writeHead(answer.statusCode ?? 502, headers);
        answer.pipe(response);
      },
    );
    forward.on("error", () => response.destroy());
    request.pipe(forward);
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({ url: `http://127.0.0.1:${server.address().port}/`, stop: () => server.close() }),
    ),
  );
}

/** Another site (`localhost` is not the same site as `127.0.0.1`): a page with one link, to `?to`. */
function startOtherSite() {
  const server = http.createServer((request, response) => {
    const to = new URL(request.url, "http://localhost").searchParams.get("to") ?? "/";
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    response.end(`<!doctype html><title>Another site</title><a id="go" href="${encodeURI(to)}">Go</a>`);
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({ url: `http://localhost:${server.address().port}/`, stop: () => server.close() }),
    ),
  );
}

const CATEGORIES = [
  "-*",
  "devtools.timeline",
  "disabled-by-default-devtools.timeline",
  "blink",
  "loading",
  "toplevel",
  "v8",
  "navigation",
];

/** The page's commit task and the V8 context creation inside it, in ms, from one trace. */
function commitOf(events) {
  const inside = (outer, inner) =>
    outer.pid === inner.pid &&
    outer.tid === inner.tid &&
    outer.ts <= inner.ts &&
    outer.ts + outer.dur >= inner.ts + inner.dur;
  // An SVG image (the icons' strip) commits a document of its own: not the page's.
  const images = events.filter((e) => e.ph === "X" && e.name === "SVGImage::DataChanged");
  const commit = events
    .filter((e) => e.ph === "X" && e.name === "DocumentLoader::CommitNavigation")
    .filter((e) => !images.some((image) => inside(image, e)))
    .sort((a, b) => b.ts - a.ts)[0];
  if (!commit) throw new Error("no navigation commit in the trace");
  const task = events
    .filter((e) => e.ph === "X" && /RunTask$/.test(e.name) && inside(e, commit))
    .sort((a, b) => b.dur - a.dur)[0];
  const context = events
    .filter((e) => e.ph === "X" && e.name === "LocalWindowProxy::Initialize" && inside(task, e))
    .reduce((longest, e) => Math.max(longest, e.dur), 0);
  return { task: task.dur / 1000, context: context / 1000 };
}

const buildDir = (process.argv[2] ?? "build").replace(/\/+$/, "");
const runs = Number(process.env.RUNS ?? 6);
const server = await startAppServer(buildDir, {});
const withPolicy = await proxyTo(server.url, []);
const withoutPolicy = await proxyTo(server.url, ["cross-origin-opener-policy"]);
const otherSite = await startOtherSite();
const browser = await chromium.launch({
  executablePath: chromiumPath(),
  args: [...CHROMIUM_FLAGS, ...LOOPBACK_ONLY_FLAGS],
});

async function load(url, from) {
  const context = await browser.newContext({ viewport: { width: 412, height: 823 } });
  try {
    const page = await context.newPage();
    if (from === "another site") await page.goto(`${otherSite.url}?to=${encodeURIComponent(url)}`);
    await browser.startTracing(page, { categories: CATEGORIES });
    if (from === "another site") await Promise.all([page.waitForURL(url), page.click("#go")]);
    else await page.goto(url);
    await page.waitForLoadState("load");
    return commitOf(JSON.parse((await browser.stopTracing()).toString()).traceEvents);
  } finally {
    await context.close();
  }
}

const rows = new Map();
try {
  for (let run = 0; run < runs; run += 1) {
    const variants = [
      ["with COOP", withPolicy.url],
      ["without COOP", withoutPolicy.url],
    ];
    // Which goes first alternates, so that neither always meets the machine in the same state.
    for (const [policy, url] of run % 2 === 0 ? variants : variants.reverse())
      for (const from of ["about:blank", "another site"]) {
        const key = `from ${from}, ${policy}`;
        rows.set(key, [...(rows.get(key) ?? []), await load(url, from)]);
      }
  }
} finally {
  await browser.close();
  withPolicy.stop();
  withoutPolicy.stop();
  otherSite.stop();
  await server.stop();
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const list = (values) => values.map((v) => Math.round(v)).join(" ");
for (const key of [...rows.keys()].sort()) {
  const loads = rows.get(key);
  const tasks = loads.map((l) => l.task);
  const contexts = loads.map((l) => l.context);
  console.log(
    `${key.padEnd(32)} commit task ${list(tasks)} (median ${Math.round(median(tasks))} ms); ` +
      `V8 context ${list(contexts)} (median ${Math.round(median(contexts))} ms)`,
  );
}
