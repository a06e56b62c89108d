#!/usr/bin/env node
// `npm run bench`: builds the app into its own folder, serves it as `npm start` does next to a fake
// `send-contact-email` on 127.0.0.1, measures bytes, Lighthouse, throughput (load) and what keeping
// a lead costs (store), prints one table of budgets and observations, writes
// bench/results/latest.json and exits 1 when a budget is missed. References, each measured in the
// same run (bench/lib/reference-release.mjs): the store section's the last release with file-based
// lead storage, against this build on SQLite and on a throwaway PostgreSQL (scripts/postgres.mjs;
// missing, the section fails); bytes, load and lighthouse also the last release on Node 20
// (issue 34, budgets BUDGETS.node20*).
// Options: USAGE below (`npm run bench -- --help`).
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";

import { bareDocumentResponse } from "./lib/bare-document.mjs";
import { analyseBundles, packagesIn } from "./lib/bundles.mjs";
import { fetchWire, measurePage } from "./lib/bytes.mjs";
import { chromiumPath } from "../scripts/chromium.mjs";
import { startPostgres } from "../scripts/postgres.mjs";
import { prepareReference, REFERENCE_RELEASES, startReference } from "./lib/reference-release.mjs";
import { runLighthouse, tbtAnatomy } from "./lib/lighthouse.mjs";
import { CAMPAIGN_QUERY, runLoad, validContactForm } from "./lib/load.mjs";
import {
  BUDGETS,
  budgetRow,
  formatTable,
  kb,
  missedBudgets,
  ms,
  observationRow,
  referenceRow,
} from "./lib/report.mjs";
import { buildApp, root, startAppServer, startBareServer, startFakeFunction } from "./lib/servers.mjs";
import { runStore } from "./lib/store.mjs";

const USAGE = `npm run bench -- [options]
  --skip-build        measure the build already in REMIX_BUILD_DIR (default .builds/bench)
  --only=bytes,lighthouse,load,store   these sections only (results in bench/results/partial-*.json)
  --only=node20       bytes, load and mobile Lighthouse against the last release on Node 20
  --without-node20    leave the Node 20 release out
  --runs=3            Lighthouse runs of each configuration
  --duration=5        seconds per load and store run    --rounds=3   rounds of those runs
  --mobile-only       no desktop Lighthouse runs         --save-lhr   keep every Lighthouse report
Environment: REMIX_BUILD_DIR, CHROME_PATH (scripts/chromium.mjs).`;
const args = process.argv.slice(2);
if (args.includes("--help")) {
  console.log(USAGE);
  process.exit(0);
}
const option = (name, fallback) => {
  const arg = args.find((a) => a.startsWith(`--${name}=`));
  return arg ? arg.slice(name.length + 3) : fallback;
};
const ALL_SECTIONS = ["bytes", "lighthouse", "load", "store"];
const only = option("only", ALL_SECTIONS.join(",")).split(",");
// --only=node20: the sections that compare this build with the Node 20 release, phone only.
const node20Only = only.includes("node20");
const sections = new Set(
  only.flatMap((name) => (name === "node20" ? ["bytes", "load", "lighthouse"] : [name])),
);
const mobileOnly = args.includes("--mobile-only") || node20Only;
const NODE20_SECTIONS = ["bytes", "lighthouse", "load"];
const withNode20 =
  !args.includes("--without-node20") && NODE20_SECTIONS.some((section) => sections.has(section));
// How the two sides of a comparison are named in its rows.
const THIS_BUILD = `this build (Node ${process.versions.node.split(".")[0]})`;
const PREVIOUS = "previous release (Node 20)";
const lighthouseRuns = Number(option("runs", "3"));
const loadDuration = Number(option("duration", "5"));
const loadRounds = Number(option("rounds", "3"));
const buildDir = (process.env.REMIX_BUILD_DIR || ".builds/bench").replace(/\/+$/, "");

const started = Date.now();
const log = (line) => process.stderr.write(`${line}\n`);
const elapsed = () => `${((Date.now() - started) / 1000).toFixed(0)} s`;

const rows = [];
const details = {};
const observe = (...row) => rows.push(observationRow(...row));
const budget = (...row) => rows.push(budgetRow(...row));
const compare = (...row) => rows.push(referenceRow(...row));

function failedSection(section, error) {
  log(`  ${section} failed: ${error?.stack ?? error}`);
  budget(section, "section ran to completion", null, "=", 1);
  details[`${section}Error`] = String(error?.message ?? error);
}

function fileLine(file) {
  const br =
    file.brServedEncoding === "br" ? `br ${kb(file.brServed)}` : `br not served (${file.brServedEncoding})`;
  return `raw ${kb(file.raw)} · gz ${kb(file.gzip)} · ${br}`;
}

/**
 * First-visit bytes of each kind (HTML, CSS, JS), each total gzip and br as served, for this
 * build and for the Node 20 release (issue 34): rows with both and budgets (this build at most
 * BUDGETS.node20BytesFactor x the reference's).
 */
function node20BytesRows(page, referencePage) {
  const totals = (files, kind, key) =>
    files
      .filter((file) => file.phase === "load" && file.kind === kind)
      .reduce((sum, file) => sum + file[key], 0);
  const comparison = {};
  for (const kind of ["html", "css", "js"]) {
    for (const [key, encoding] of [
      ["gzipServed", "gzip"],
      ["brServed", "br"],
    ]) {
      const value = totals(page.files, kind, key);
      const reference = referencePage ? totals(referencePage.files, kind, key) : null;
      comparison[`${kind} ${encoding}`] = { thisBuild: value, reference };
      compare(
        "node20",
        `first-visit ${kind.toUpperCase()} ${encoding} as served: ${THIS_BUILD} | ${PREVIOUS}`,
        value,
        reference,
        "<=",
        { factor: BUDGETS.node20BytesFactor },
        (v) => `${v.toLocaleString("en-US", { maximumFractionDigits: 0 })} B`,
      );
    }
  }
  const count = (files, kind) => files.filter((file) => file.phase === "load" && file.kind === kind).length;
  if (referencePage)
    observe(
      "node20",
      `first-visit requests (HTML / CSS / JS files): ${THIS_BUILD} | ${PREVIOUS}`,
      page.files.length,
      ["html", "css", "js"].map((kind) => count(page.files, kind)).join(" / ") +
        " | " +
        ["html", "css", "js"].map((kind) => count(referencePage.files, kind)).join(" / "),
    );
  return comparison;
}

async function bytesSection(server, node20) {
  const page = await measurePage(server.url);
  if (node20) {
    // A reference that cannot be measured leaves its budgets "not measured" (missed), and this
    // build's own rows stand.
    let referencePage = null;
    try {
      referencePage = await measurePage(node20.url);
    } catch (error) {
      log(`  ${PREVIOUS}: bytes not measured: ${error?.stack ?? error}`);
    }
    details.node20.bytes = node20BytesRows(page, referencePage);
  }
  const onLoad = page.files.filter((file) => file.phase === "load");
  const html = onLoad.find((file) => file.kind === "html");
  const css = onLoad.filter((file) => file.kind === "css");
  const js = onLoad.filter((file) => file.kind === "js");
  const sum = (files, key) => files.reduce((total, file) => total + file[key], 0);
  const pathOf = (url) => new URL(url).pathname;

  const brServed = html?.brServedEncoding === "br" ? html.brServed : null;
  budget("bytes", "HTML of / (gzip)", html ? html.gzip : null, "<=", BUDGETS.htmlGzip, kb);
  budget("bytes", "HTML of / as served with br offered", brServed, "<=", BUDGETS.htmlBrServed, kb);
  const cssGzip = css.length ? sum(css, "gzip") : null;
  budget("bytes", "CSS on first visit (gzip)", cssGzip, "<=", BUDGETS.cssGzip, kb);
  budget("bytes", `JS on first visit, ${js.length} files (gzip)`, sum(js, "gzip"), "<=", BUDGETS.jsGzip, kb);
  const thirdParty = page.thirdParty.filter((req) => req.phase === "load").length;
  budget("requests", "requests to non-loopback hosts on load", thirdParty, "<=", BUDGETS.thirdPartyRequests);
  const otherBlocking = page.otherBlocking.length;
  const blockingLabel = "render-blocking requests besides the stylesheet";
  budget("requests", blockingLabel, otherBlocking, "<=", BUDGETS.otherRenderBlocking);

  if (html) observe("bytes", "HTML /", html.gzip, fileLine(html));
  for (const file of css) observe("bytes", `CSS ${pathOf(file.url)}`, file.gzip, fileLine(file));
  for (const file of js) observe("bytes", `JS ${pathOf(file.url)}`, file.gzip, fileLine(file));
  const jsRawBr = `${kb(sum(js, "raw"))} / ${kb(sum(js, "brServed"))}`;
  observe("bytes", "JS on first visit, raw / br served", sum(js, "raw"), jsRawBr);
  observe("requests", "requests on first visit", onLoad.length + page.thirdParty.length);
  observe("requests", "stylesheets blocking render", page.blocking.length - page.otherBlocking.length);
  for (const entry of page.otherBlocking) observe("requests", "render-blocking", entry.url);
  for (const req of page.thirdParty) observe("requests", `non-loopback (${req.phase})`, req.url);
  observe("page", "console errors on first visit", page.consoleErrors.length);

  for (const file of page.files.filter((file) => file.phase !== "load" && file.kind === "js"))
    observe("bytes", `JS loaded later (scroll/form) ${pathOf(file.url)}`, file.gzip, fileLine(file));

  // Which packages the first visit pays for, and what each lazy chunk costs.
  const bundles = analyseBundles(buildDir, root, new Set(js.map((file) => pathOf(file.url))));
  const packages = packagesIn(bundles.filter((chunk) => chunk.firstVisit));
  for (const pkg of packages.slice(0, 12))
    observe("bundle", `first-visit JS from ${pkg.name} (raw, minified)`, pkg.raw, kb(pkg.raw));
  for (const watched of ["zod", "@radix-ui", "@supabase"]) {
    const present = packages.filter((pkg) => pkg.name === watched || pkg.name.startsWith(`${watched}/`));
    observe(
      "bundle",
      `${watched} in first-visit JS`,
      present.length,
      present.length ? present.map((pkg) => `${pkg.name} ${kb(pkg.raw)} raw`).join(", ") : "none",
    );
  }
  for (const chunk of bundles.filter((c) => !c.firstVisit)) {
    const byPackage = Object.entries(chunk.byPackage).sort((a, b) => b[1] - a[1]);
    const top = byPackage
      .slice(0, 3)
      .map(([name]) => name)
      .join(", ");
    observe("bundle", `not on first visit: ${chunk.path} [${top}]`, chunk.gzip, `gz ${kb(chunk.gzip)}`);
  }
  const { files, blocking, consoleErrors } = page;
  details.bytes = { files, blocking, thirdParty: page.thirdParty, consoleErrors };
  details.bundles = bundles;
  return { stylesheetPath: css[0] ? pathOf(css[0].url) : null, scriptPath: js[0] ? pathOf(js[0].url) : null };
}

async function cachingSection(server, paths) {
  const get = (path, encoding) => fetchWire(`${server.url}${path}`, encoding);
  const home = await get("/", "br, gzip");
  const homeGzip = await get("/", "gzip");
  observe("caching", "Cache-Control of /", home.headers["cache-control"] ?? "(none)");
  observe(
    "caching",
    "Content-Encoding of / (br, gzip offered)",
    home.headers["content-encoding"] ?? "identity",
  );
  observe(
    "caching",
    "Content-Encoding of / (gzip offered)",
    homeGzip.headers["content-encoding"] ?? "identity",
  );
  for (const path of [paths.scriptPath, paths.stylesheetPath].filter(Boolean)) {
    const asset = await get(path, "br, gzip");
    observe("caching", `Cache-Control of ${path}`, asset.headers["cache-control"] ?? "(none)");
    observe(
      "caching",
      `Content-Encoding of ${path} (br offered)`,
      asset.headers["content-encoding"] ?? "identity",
    );
  }
  const post = await fetchWire(`${server.url}/?index`, "br, gzip", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: server.url },
    body: validContactForm,
  });
  observe(
    "caching",
    `Cache-Control of POST /?index (status ${post.status})`,
    post.headers["cache-control"] ?? "(none)",
  );
}

async function lighthouseSection(server, node20) {
  // --save-lhr keeps every Lighthouse report (bench/results/lhr-<config>-<run>.json) for diagnosis.
  const save = args.includes("--save-lhr")
    ? (name, lhr) => writeFileSync(`${root}bench/results/lhr-${name}.json`, JSON.stringify(lhr))
    : null;
  // Issue 26: a bare HTML document, measured interleaved with the page in the same run, is the
  // floor the page's TBT is judged against.
  const bare = await startBareServer(bareDocumentResponse(), `${root}${buildDir}`);
  let result;
  try {
    result = await runLighthouse(`${server.url}/`, lighthouseRuns, log, save, {
      mobileOnly,
      references: [
        { key: "reference", name: "bare document", url: `${bare.url}/` },
        ...(node20 ? [{ key: "node20", name: PREVIOUS, url: `${node20.url}/` }] : []),
      ],
    });
  } finally {
    await bare.stop();
  }
  for (const name of ["mobile", "desktop"]) {
    const figures = result[name];
    if (!figures) continue;
    for (const [category, score] of Object.entries(figures.scores)) {
      budget(
        "lighthouse",
        `${name} ${category} (median of ${figures.runs})`,
        score,
        ">=",
        BUDGETS.lighthouseScore,
      );
    }
  }
  const mobile = result.mobile;
  budget("lighthouse", "mobile LCP", mobile.lcp, "<=", BUDGETS.mobileLcpMs, ms);
  budget("lighthouse", "mobile TBT", mobile.tbt, "<=", BUDGETS.mobileTbtMs, ms);
  budget("lighthouse", "mobile CLS", mobile.cls, "<=", BUDGETS.mobileCls, (v) => v.toFixed(3));
  observe("lighthouse", "mobile FCP / Speed Index", mobile.fcp, `${ms(mobile.fcp)} / ${ms(mobile.si)}`);
  referenceRows(mobile, result.reference);
  if (node20) node20LighthouseRows(mobile, result.node20);
  for (const [index, run] of mobile.perRun.entries())
    observe("lighthouse", `mobile run ${index + 1}: TBT anatomy`, run.tbt, tbtAnatomy(run));
  for (const [index, run] of result.reference.perRun.entries())
    observe("lighthouse", `bare document run ${index + 1}: TBT anatomy`, run.tbt, tbtAnatomy(run));
  const desktop = result.desktop;
  if (desktop)
    observe(
      "lighthouse",
      "desktop FCP / LCP / TBT / CLS",
      desktop.lcp,
      `${ms(desktop.fcp)} / ${ms(desktop.lcp)} / ${ms(desktop.tbt)} / ${desktop.cls?.toFixed(3)}`,
    );
  const failedAttempts = Object.entries(result).flatMap(([name, figures]) =>
    figures.failedAttempts.map((failure) => `${name}: ${failure}`),
  );
  observe(
    "lighthouse",
    "runs not recorded (runtime error) and run again",
    failedAttempts.length,
    failedAttempts.length ? `${failedAttempts.length}: ${failedAttempts.join("; ")}` : "0",
  );
  observe(
    "lighthouse",
    "machine speed (Lighthouse benchmarkIndex, median)",
    mobile.benchmarkIndex,
    `${Math.round(mobile.benchmarkIndex ?? 0)} (load average ${os.loadavg()[0]?.toFixed(2)})`,
  );
  observe("lighthouse", "LCP element (mobile)", mobile.lcpElement, mobile.lcpElement ?? "?");
  for (const [name, figures] of Object.entries(result)) {
    for (const audit of figures.failing) {
      observe(
        "lighthouse",
        `${name} audit not passed (some run): ${audit.category}/${audit.id}`,
        audit.score,
        [`${audit.title} ${audit.value}`.trim(), ...(audit.found ?? [])].join(" | "),
      );
    }
  }
  details.lighthouse = result;
}

/**
 * The page next to the previous release on Node 20, measured interleaved in the same run (issue
 * 34): Performance, TBT, LCP and CLS as budgets against the reference's medians, per run as
 * observations.
 */
function node20LighthouseRows(mobile, reference) {
  const perRun = (figures, read, format) =>
    figures.perRun.map((run) => (read(run) == null ? "?" : format(read(run)))).join(" / ");
  const metrics = [
    ["Performance", (f) => f.scores.performance, ">=", { offset: -BUDGETS.node20PerformanceDrop }, String],
    ["TBT", (f) => f.tbt, "<=", { offset: BUDGETS.node20TbtOverMs }, ms],
    ["LCP", (f) => f.lcp, "<=", { factor: BUDGETS.node20LcpFactor }, ms],
    ["CLS", (f) => f.cls, "<=", { offset: BUDGETS.node20ClsOver }, (v) => v.toFixed(3)],
  ];
  for (const [name, read, op, tolerance, format] of metrics) {
    compare(
      "node20",
      `mobile ${name} (medians of ${mobile.runs} | ${reference.runs}): ${THIS_BUILD} | ${PREVIOUS}`,
      read(mobile),
      read(reference),
      /** @type {"<=" | ">="} */ (op),
      tolerance,
      format,
    );
    const round = name === "CLS" ? (v) => v.toFixed(3) : (v) => String(Math.round(v));
    observe(
      "node20",
      `mobile ${name} per run: ${THIS_BUILD} | ${PREVIOUS}`,
      read(mobile),
      `${perRun(mobile, read, round)} | ${perRun(reference, read, round)}`,
    );
  }
  observe(
    "node20",
    `mobile FCP / longest observed task after FCP (medians): ${THIS_BUILD} | ${PREVIOUS}`,
    mobile.fcp,
    `${ms(mobile.fcp)} / ${ms(mobile.longestObservedTaskMs ?? Number.NaN)} | ` +
      `${ms(reference.fcp)} / ${ms(reference.longestObservedTaskMs ?? Number.NaN)}`,
  );
  details.node20.lighthouse = { thisBuild: mobile, reference };
}

/**
 * The page next to the bare document of the same run (issue 26): TBT, Performance and what the
 * main thread did after the first paint, observed, per run and as medians; and the two targets of
 * the issue as budgets: TBT within 50 ms of the bare document's, no observed task over 50 ms.
 */
function referenceRows(mobile, reference) {
  const perRun = (figures, read, format = (v) => String(Math.round(v))) =>
    figures.perRun.map((run) => (read(run) == null ? "?" : format(read(run)))).join(" / ");
  const side = (figures, read, median) =>
    `${perRun(figures, read)} (median ${Math.round(median ?? Number.NaN)})`;
  const compared = [
    ["mobile TBT, ms: page | bare document, per run (medians)", (f) => f.tbt, (run) => run.tbt],
    [
      "mobile Performance: page | bare document, per run (medians)",
      (f) => f.scores.performance,
      (run) => run.scores.performance,
    ],
    [
      "observed main thread after FCP, ms: page | bare document, per run (medians)",
      (f) => f.observedAfterFcpMs,
      (run) => run.observed?.totalMs,
    ],
    [
      "longest observed task after FCP, ms: page | bare document, per run (medians)",
      (f) => f.longestObservedTaskMs,
      (run) => run.observed?.longestMs,
    ],
    [
      "observed first render (longest task before FCP that laid out), ms: page | bare document (medians)",
      (f) => f.firstRenderMs,
      (run) => run.observed?.firstRenderMs,
    ],
  ];
  for (const [metric, median, read] of compared)
    observe(
      "lighthouse",
      metric,
      median(mobile),
      `${side(mobile, read, median(mobile))} | ${side(reference, read, median(reference))}`,
    );
  const overFloor = mobile.tbt == null || reference.tbt == null ? null : mobile.tbt - reference.tbt;
  const lighthouse = (metric, value, limit) => budget("lighthouse", metric, value, "<=", limit, ms);
  lighthouse(
    "mobile TBT minus the bare document's (medians, same run)",
    overFloor,
    BUDGETS.mobileTbtOverBareMs,
  );
  const longest = mobile.longestObservedTaskMs;
  lighthouse(
    "mobile: longest observed main-thread task after FCP (median)",
    longest,
    BUDGETS.longestObservedTaskMs,
  );
}

async function loadSection(server, fake, node20) {
  // The ceiling serves exactly what the app sends a browser for GET /: its headers and br body.
  const home = await fetchWire(`${server.url}/`, "br, gzip");
  const headers = { ...home.headers };
  for (const name of ["content-length", "connection", "keep-alive", "date"]) delete headers[name];
  const bare = await startBareServer({ headers, body: home.body }, `${root}${buildDir}`);
  let result;
  try {
    result = await runLoad(
      {
        appUrl: server.url,
        bareUrl: bare.url,
        referenceUrl: node20?.url ?? null,
        fakeFunctionUrl: fake.url,
        fakeReceived: fake.received,
        duration: loadDuration,
        rounds: loadRounds,
      },
      log,
    );
  } finally {
    await bare.stop();
  }
  const line = (f) =>
    `${f.rps} rps · p50 ${f.p50} ms · p99 ${f.p99} ms${f.non2xx || f.errors || f.timeouts ? ` · ${f.non2xx} non-2xx, ${f.errors} errors, ${f.timeouts} timeouts` : ""}`;
  const perRound = (comparison) => `${comparison.ratio.toFixed(3)} (rounds ${comparison.ratios.join(" / ")})`;
  for (const c of [10, 50]) {
    const get = result.get[c];
    observe("load", `GET / (br) at ${c} connections, median`, get.home.rps, line(get.home));
    observe("load", `GET /healthz at ${c} connections, median`, get.healthz.rps, line(get.healthz));
    observe("load", `bare node:http, same bytes, at ${c}, median`, get.bare.rps, line(get.bare));
    observe("load", `GET ${CAMPAIGN_QUERY} at ${c}, median`, get.campaign.rps, line(get.campaign));
    const toBare = (label, comparison, budget) =>
      c === 50
        ? budgetRow("load", `${label} at 50 (median of rounds)`, comparison.ratio, ">=", budget, (v) =>
            v === comparison.ratio ? perRound(comparison) : v.toFixed(2),
          )
        : observationRow("load", `${label} at ${c}`, comparison.ratio, perRound(comparison));
    rows.push(toBare("ratio GET / ÷ bare node:http", get.toBare, BUDGETS.homeToBareRatio));
    rows.push(
      toBare("ratio campaign link ÷ bare node:http", get.campaignToBare, BUDGETS.campaignToBareRatio),
    );
    observe("load", `ratio GET / ÷ GET /healthz at ${c}`, get.toHealthz.ratio, perRound(get.toHealthz));
  }
  if (node20) {
    for (const c of [10, 50]) {
      const mine = result.get[c];
      const theirs = mine.reference;
      const both = `${THIS_BUILD} | ${PREVIOUS}`;
      const rps = (key) =>
        `${mine[key].rps} | ${theirs[key].rps} (ratio ${(mine[key].rps / theirs[key].rps).toFixed(3)})`;
      observe("node20", `${PREVIOUS}: GET / (br) at ${c}, median`, theirs.home.rps, line(theirs.home));
      observe(
        "node20",
        `${PREVIOUS}: GET /healthz at ${c}, median`,
        theirs.healthz.rps,
        line(theirs.healthz),
      );
      const metric = `GET / ÷ bare node:http at ${c} (median of rounds): ${both}`;
      const tolerance = { factor: BUDGETS.node20HomeToBareFactor };
      const row = referenceRow(
        "node20",
        metric,
        mine.toBare.ratio,
        theirs.toBare.ratio,
        ">=",
        tolerance,
        (v) => v.toFixed(3),
      );
      // The budget at 50 connections; at 10 an observation.
      rows.push(c === 50 ? row : observationRow("node20", row.metric, row.value, row.display));
      const rounds = `${mine.toBare.ratios.join(" / ")} | ${theirs.toBare.ratios.join(" / ")}`;
      observe("node20", `GET / ÷ bare node:http at ${c} per round: ${both}`, mine.toBare.ratio, rounds);
      // Node's own speed apart from the page: the trivial route of each server, same rounds.
      observe("node20", `GET /healthz rps at ${c}: ${both}`, mine.healthz.rps, rps("healthz"));
      observe("node20", `GET / rps at ${c}: ${both}`, mine.home.rps, rps("home"));
    }
    details.node20.load = Object.fromEntries(
      [10, 50].map((c) => [c, { thisBuild: result.get[c].toBare, reference: result.get[c].reference }]),
    );
  }
  const homes = [10, 50].map((c) => result.get[c].home);
  const failures = homes.reduce((sum, home) => sum + home.non2xx + home.errors + home.timeouts, 0);
  budget("load", "GET / failures (non-2xx, errors, timeouts), all rounds", failures, "=", 0);
  observe("load", "fake function alone, POST at 10", result.fake.rps, line(result.fake));
  const post = result.post;
  const postLine = `${post.rps} rps · p50 ${post.p50} ms · p99 ${post.p99} ms · ${post.sent} sent (303), ${post.failed} failed`;
  observe("load", "POST /?index (valid form, each its own lead) at 10", post.rps, postLine);
  // Not a speed budget: a POST figure only means something if every valid request (each its own
  // lead) was answered as sent (303 to the success page) and really reached the function: no
  // 4xx/5xx, no rate limit, no honeypot, no duplicate. (Requests still in flight when autocannon
  // stops may reach the function uncounted, hence >=.)
  const delivered = post.sent > 0 && post.failed === 0 && post.reachedFunction >= post.sent;
  const shortOf = `no: ${post.sent}/${post.requests} sent, ${post.reachedFunction} reached it`;
  const label = "every valid POST answered as sent (303) and reached the function";
  budget("load", label, delivered ? 1 : 0, "=", 1, (v) => (v ? "yes" : shortOf));
  const added = `${post.addedP50} ms / ${post.addedMean} ms`;
  observe("load", "server's added latency on POST (p50 / mean)", post.addedP50, added);
  details.load = result;
}

/**
 * What every server of the bench runs with: the fake function, and limits so high that the load
 * measures the server, not the rate limiter. (The server refuses a global limit that one client
 * could reach: it must be greater than the per-client one.)
 */
function benchEnv(fake) {
  return {
    SUPABASE_URL: fake.url,
    SUPABASE_ANON_KEY: "bench-anon-key",
    RATE_LIMIT_PER_CLIENT: "1000000000",
    RATE_LIMIT_GLOBAL_PER_MINUTE: "1000000001",
    GA_MEASUREMENT_ID: undefined,
    MOCKS: undefined,
  };
}

/**
 * A lead store of its own in `dir` (SQLite unless `DATABASE_URL` is given), and no file of the
 * previous release to import: the defaults (.data/...) are the checkout's own.
 */
function leadStoreEnv(dir, databaseUrl) {
  mkdirSync(dir, { recursive: true });
  return {
    LEADS_DATABASE_FILE: `${dir}/leads.sqlite`,
    DATABASE_URL: databaseUrl,
    CONTACT_INBOX_FILE: `${dir}/contact-requests.jsonl`,
    CONTACT_UNDELIVERED_FILE: `${dir}/undelivered-contact-requests.jsonl`,
  };
}

/** The lead store's state as the server's /healthz reports it (`ready`, or `unavailable: why`), and its engine. */
async function storeState(server) {
  try {
    const { leadStore: store } = await (await fetch(`${server.url}/healthz`)).json();
    if (!store) return { text: "not reported" };
    return { engine: store.engine, text: `${store.state}${store.reason ? `: ${store.reason}` : ""}` };
  } catch (error) {
    return { text: `no /healthz: ${error?.message ?? error}` };
  }
}

/** Waits until the server's /healthz says its lead store is `engine` and ready. */
async function storeReady(server, engine) {
  for (const deadline = Date.now() + 30_000; ; await new Promise((resolve) => setTimeout(resolve, 200))) {
    const state = await storeState(server);
    if (state.engine === engine && state.text === "ready") return;
    if (Date.now() > deadline)
      throw new Error(`The ${engine} lead store is not ready after 30 s: ${state.engine} ${state.text}`);
  }
}

/** How many leads each store holds, by state: every post answered as sent must be one of them. */
async function storedLeads(sqliteFile, databaseUrl) {
  const { default: Database } = await import("better-sqlite3");
  const sqlite = new Database(sqliteFile, { readonly: true, fileMustExist: true });
  let fromSqlite;
  try {
    fromSqlite = sqlite.prepare("SELECT state, COUNT(*) AS n FROM leads GROUP BY state").all();
  } finally {
    sqlite.close();
  }
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 5_000 });
  client.on("error", () => {});
  await client.connect();
  let fromPostgres;
  try {
    fromPostgres = (await client.query("SELECT state, COUNT(*)::int AS n FROM leads GROUP BY state")).rows;
  } finally {
    await client.end().catch(() => {});
  }
  const byState = (list) => Object.fromEntries(list.map((row) => [row.state, Number(row.n)]));
  return { SQLite: byState(fromSqlite), PostgreSQL: byState(fromPostgres) };
}

/** A reference release's one-time set-up (worktree, npm ci, build), as a row; `.details` for the results. */
function referenceSetUp(section, name, { setupMs, cached, preparedAt }) {
  const when = cached ? `(cached, made ${preparedAt})` : "(this run)";
  observe(
    section,
    `${name}: one-time set-up (worktree, npm ci, build)`,
    setupMs,
    `${(setupMs / 1000).toFixed(0)} s ${when}`,
  );
}
referenceSetUp.details = ({ commit, setupMs, steps, cached, preparedAt }) => ({
  commit,
  setupMs,
  steps,
  cached,
  preparedAt,
});

async function storeSection(fake, dir) {
  const reference = await prepareReference(REFERENCE_RELEASES.fileStore, log);
  referenceSetUp("store", `file store reference (${reference.commit.slice(0, 7)})`, reference);
  const servers = [];
  let postgres;
  let result;
  let stored;
  const storeAtEnd = {};
  const loadBefore = os.loadavg();
  try {
    log(`  starting the file store reference, this build on SQLite, PostgreSQL and this build on it`);
    const file = await startReference(reference, {
      ...benchEnv(fake),
      CONTACT_INBOX_FILE: `${dir}/file-store/contact-requests.jsonl`,
      CONTACT_UNDELIVERED_FILE: `${dir}/file-store/undelivered-contact-requests.jsonl`,
    });
    servers.push(file);
    const sqliteEnv = leadStoreEnv(`${dir}/sqlite`, undefined);
    const sqlite = await startAppServer(buildDir, { ...benchEnv(fake), ...sqliteEnv });
    servers.push(sqlite);
    // A missing PostgreSQL throws here: the section fails, it is never skipped.
    postgres = await startPostgres();
    const databaseUrl = await postgres.createDatabase("bench_leads");
    const onPostgres = await startAppServer(buildDir, {
      ...benchEnv(fake),
      ...leadStoreEnv(`${dir}/postgres`, databaseUrl),
    });
    servers.push(onPostgres);
    await storeReady(sqlite, "sqlite");
    await storeReady(onPostgres, "postgres");
    log(
      `  file store pid ${file.pid}, SQLite pid ${sqlite.pid}, PostgreSQL pid ${postgres.pid} ` +
        `(port ${postgres.port}) with its app server pid ${onPostgres.pid}`,
    );
    result = await runStore(
      {
        targets: { "file store": file, SQLite: sqlite, PostgreSQL: onPostgres },
        fake,
        duration: loadDuration,
        rounds: loadRounds,
      },
      log,
    );
    stored = await storedLeads(sqliteEnv.LEADS_DATABASE_FILE, databaseUrl);
    storeAtEnd.SQLite = (await storeState(sqlite)).text;
    storeAtEnd.PostgreSQL = (await storeState(onPostgres)).text;
  } finally {
    for (const server of servers.reverse()) await server.stop();
    // Stopped by its PID (SIGINT, then SIGKILL), its folder deleted.
    await postgres?.destroy();
  }
  const loadAfter = os.loadavg();

  const c = result.connections;
  for (const [name, f] of Object.entries(result.targets)) {
    observe(
      "store",
      `${name}${name === result.reference ? " (reference)" : ""}: POST at ${c}, median of ${result.rounds}`,
      f.rps,
      `${f.rps} rps · p50 ${f.p50 ?? "–"} ms · p99 ${f.p99 ?? "–"} ms · ${f.sent} sent (303), ${f.failed} failed` +
        ` · server CPU ${f.cpuMsPerPost ?? "–"} ms per post (its process only)` +
        (f.roundsWithoutAnswer
          ? ` · no answer at all in ${f.roundsWithoutAnswer} of ${result.rounds} rounds`
          : ""),
    );
  }
  for (const [name, comparison] of Object.entries(result.ratios)) {
    const rounds = comparison.ratios.map((r) => r ?? "none").join(" / ");
    budget(
      "store",
      `ratio p99 ${name} ÷ file store at ${c} (median of rounds)`,
      comparison.ratio,
      "<=",
      BUDGETS.storePostP99Ratio,
      (v) => (v === comparison.ratio ? `${v.toFixed(2)} (rounds ${rounds})` : v.toFixed(2)),
    );
    // Not measured when a server answered nothing in some round: say which.
    if (comparison.ratio === null)
      observe("store", `ratio p99 ${name} ÷ file store, per round (none: no answer)`, null, rounds);
  }
  for (const name of Object.keys(result.ratios)) {
    const leads = stored?.[name] ?? {};
    const total = Object.values(leads).reduce((a, b) => a + b, 0);
    observe(
      "store",
      `${name}: leads in the store after the run (warm-up included); store at the end`,
      total,
      `${total} (${Object.entries(leads)
        .map(([state, n]) => `${n} ${state}`)
        .join(", ")}); ${storeAtEnd[name]}`,
    );
  }
  // As in the load section: a figure only means something if every valid post (each its own lead)
  // was answered as sent and really reached the function (>=: a request still in flight when
  // autocannon stops may reach it uncounted), and if no round went without any answer.
  const short = Object.entries(result.targets).filter(
    ([, f]) => !(f.roundsWithoutAnswer === 0 && f.sent > 0 && f.failed === 0 && f.reachedFunction >= f.sent),
  );
  budget(
    "store",
    "every valid POST of every target answered as sent (303) and reached the function",
    short.length === 0 ? 1 : 0,
    "=",
    1,
    (v) =>
      v
        ? "yes"
        : `no: ${short
            .map(
              ([name, f]) =>
                `${name} ${f.sent}/${f.requests} sent, ${f.reachedFunction} reached it` +
                (f.roundsWithoutAnswer ? `, ${f.roundsWithoutAnswer} rounds without any answer` : ""),
            )
            .join("; ")}`,
  );
  observe(
    "store",
    "machine load average (1 min) before / after the store section",
    loadAfter[0],
    `${loadBefore[0].toFixed(2)} / ${loadAfter[0].toFixed(2)} on ${os.cpus().length} cores (shared)`,
  );
  details.store = {
    reference: referenceSetUp.details(reference),
    ...result,
    storedLeads: stored,
    storeAtEnd,
    loadAverage: { before: loadBefore, after: loadAfter },
  };
}

function machine() {
  let chromium = "unknown";
  try {
    chromium = execFileSync(chromiumPath(), ["--version"], { encoding: "utf8" }).trim();
  } catch {
    // reported as unknown
  }
  return {
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? "unknown",
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    loadAverage: os.loadavg().map((v) => Math.round(v * 100) / 100),
    node: process.version,
    chromium,
    note: "shared machine: other processes compete for the same cores during the run",
  };
}

async function main() {
  const machineAtStart = machine();
  log(
    `bench: ${machineAtStart.cpus} cores (${machineAtStart.cpuModel}), load ${machineAtStart.loadAverage.join(" ")}`,
  );
  if (!args.includes("--skip-build")) {
    log(`bench: building into ${buildDir} ...`);
    await buildApp(buildDir);
  }
  log(`bench: starting servers (${elapsed()})`);
  // Each server's lead store (and the reference's files) in a folder of this run, deleted at the end.
  const dataDir = mkdtempSync(join(os.tmpdir(), "bench-leads-"));
  const fake = await startFakeFunction();
  // The shared server of bytes, lighthouse and load (the store section starts its own).
  const server = ["bytes", "lighthouse", "load"].some((section) => sections.has(section))
    ? await startAppServer(buildDir, { ...benchEnv(fake), ...leadStoreEnv(`${dataDir}/shared`) })
    : null;
  let paths = { stylesheetPath: null, scriptPath: null };
  let node20 = null;
  try {
    if (withNode20) {
      // Issue 34: the previous release, on Node 20, served next to this build for the whole run.
      log(`bench: the previous release on Node 20 (${elapsed()})`);
      try {
        const reference = await prepareReference(REFERENCE_RELEASES.node20, log);
        node20 = await startReference(reference, {
          ...benchEnv(fake),
          ...leadStoreEnv(`${dataDir}/node20`),
        });
        await storeReady(node20, "sqlite");
        log(`  ${PREVIOUS}: ${reference.commit.slice(0, 7)} on Node ${node20.node}, pid ${node20.pid}`);
        details.node20 = { reference: { ...referenceSetUp.details(reference), node: node20.node } };
        const served = `${PREVIOUS} (${reference.commit.slice(0, 7)}, served by Node ${node20.node})`;
        referenceSetUp("node20", `${served} against ${THIS_BUILD}`, reference);
      } catch (error) {
        await node20?.stop();
        node20 = null;
        failedSection("node20", error);
      }
    }
    if (sections.has("bytes")) {
      log(`bench: bytes and requests (${elapsed()})`);
      try {
        paths = await bytesSection(server, node20);
        await cachingSection(server, paths);
      } catch (error) {
        failedSection("bytes", error);
      }
    }
    if (sections.has("lighthouse")) {
      log(
        `bench: lighthouse, ${lighthouseRuns} runs mobile (with the bare document${node20 ? ` and the ${PREVIOUS}` : ""}, ` +
          `interleaved)${mobileOnly ? "" : ` + ${lighthouseRuns} desktop`} (${elapsed()})`,
      );
      try {
        await lighthouseSection(server, node20);
      } catch (error) {
        failedSection("lighthouse", error);
      }
    }
    if (sections.has("load")) {
      log(`bench: load (${elapsed()})`);
      try {
        await loadSection(server, fake, node20);
      } catch (error) {
        failedSection("load", error);
      }
    }
    if (sections.has("store")) {
      log(`bench: store, POST at 50 connections: file store (reference), SQLite, PostgreSQL (${elapsed()})`);
      try {
        await storeSection(fake, dataDir);
      } catch (error) {
        failedSection("store", error);
      }
    }
  } finally {
    await node20?.stop();
    await server?.stop();
    await fake.close();
    rmSync(dataDir, { recursive: true, force: true });
  }

  const durationMs = Date.now() - started;
  observe("bench", "wall time (limit 300 s)", durationMs, `${(durationMs / 1000).toFixed(0)} s`);
  const missed = missedBudgets(rows);
  const result = {
    date: new Date().toISOString(),
    buildDir,
    machine: { ...machineAtStart, loadAverageAtEnd: machine().loadAverage },
    options: { sections: [...sections], lighthouseRuns, loadDuration, loadRounds, mobileOnly, withNode20 },
    durationMs,
    budgets: BUDGETS,
    missed: missed.map((row) => `${row.section}: ${row.metric} = ${row.display} (budget ${row.budget})`),
    rows,
    details,
  };
  mkdirSync(`${root}bench/results`, { recursive: true });
  // Only a full run is "latest"; a partial one (--only) must not replace its figures.
  const complete = ALL_SECTIONS.every((section) => sections.has(section)) && !mobileOnly && withNode20;
  const resultFile = complete ? "latest.json" : `partial-${[...sections].join("-")}.json`;
  writeFileSync(`${root}bench/results/${resultFile}`, `${JSON.stringify(result, null, 2)}\n`);

  process.stdout.write(`\n${formatTable(rows)}\n\n`);
  process.stdout.write(
    missed.length
      ? `${missed.length} budget(s) MISSED:\n${result.missed.map((m) => `  - ${m}`).join("\n")}\n`
      : "All budgets met.\n",
  );
  process.stdout.write(`Results: bench/results/${resultFile} (${(durationMs / 1000).toFixed(0)} s)\n`);
  process.exitCode = missed.length ? 1 : 0;
}

main().catch((error) => {
  log(`bench failed: ${error?.stack ?? error}`);
  process.exitCode = 2;
});
