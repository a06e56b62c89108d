#!/usr/bin/env node
// `npm run bench` (docs/performance.md): builds the app into its own folder, serves it as `npm start`
// does beside a fake `send-contact-email` on 127.0.0.1, measures bytes, Lighthouse, load and what
// keeping a lead costs (store), prints one table of budgets and observations, writes
// bench/results/latest.json and exits 1 when a budget is missed, 2 when the bench itself failed.
// References, measured in the same run (bench/lib/reference-release.mjs): for the store section the
// last release with file-based lead storage, against this build on SQLite and on a throwaway
// PostgreSQL (scripts/postgres.mjs: missing, the section fails); for bytes, load and lighthouse the
// last release on Node 20.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";

import { bareDocumentResponse } from "./lib/bare-document.mjs";
import { analyseBundles, packagesIn } from "./lib/bundles.mjs";
import { fetchWire, measurePage } from "./lib/bytes.mjs";
import { runLighthouse, tbtAnatomy } from "./lib/lighthouse.mjs";
import { CAMPAIGN_QUERY, runLoad } from "./lib/load.mjs";
import { prepareReference, REFERENCE_RELEASES, startReference } from "./lib/reference-release.mjs";
import * as report from "./lib/report.mjs";
import { BUDGETS, kb, ms } from "./lib/report.mjs";
import {
  benchEnv,
  buildApp,
  leadStoreEnv,
  root,
  startAppServer,
  startBareServer,
  startFakeFunction,
  storeReady,
} from "./lib/servers.mjs";
import { runStore } from "./lib/store.mjs";
import { chromiumPath } from "../scripts/chromium.mjs";
import { startPostgres } from "../scripts/postgres.mjs";

const USAGE = `npm run bench -- [options]
  --skip-build      measure the build already in REMIX_BUILD_DIR (default .builds/bench)
  --only=SECTIONS   some of bytes,lighthouse,load,store (results in bench/results/partial-*.json);
                    node20: bytes, load and mobile Lighthouse against the last release on Node 20
  --runs=3          Lighthouse runs of each configuration    --rounds=3   rounds of load and store runs
  --mobile-only     no desktop Lighthouse runs               --save-lhr   keep every Lighthouse report
Environment: REMIX_BUILD_DIR, CHROME_PATH (scripts/chromium.mjs).`;
const { values: options } = parseArgs({
  options: {
    help: { type: "boolean" },
    "skip-build": { type: "boolean" },
    only: { type: "string" },
    runs: { type: "string", default: "3" },
    rounds: { type: "string", default: "3" },
    "mobile-only": { type: "boolean" },
    "save-lhr": { type: "boolean" },
  },
});
if (options.help) {
  console.log(USAGE);
  process.exit(0);
}
// A full run, or the sections --only names; the Node 20 release in a full run and with --only=node20.
const only = options.only?.split(",");
const PAGE_SECTIONS = ["bytes", "lighthouse", "load"];
const sections = new Set(
  only?.flatMap((name) => (name === "node20" ? PAGE_SECTIONS : [name])) ?? [...PAGE_SECTIONS, "store"],
);
const withNode20 = !only || only.includes("node20");
const mobileOnly = options["mobile-only"] || Boolean(only?.includes("node20"));
const lighthouseRuns = Number(options.runs);
const rounds = Number(options.rounds);
const LOAD_SECONDS = 5;
const buildDir = (process.env.REMIX_BUILD_DIR || ".builds/bench").replace(/\/+$/, "");
const RESULTS = `${root}bench/results`;
// How the two sides of a comparison with the Node 20 release are named in its rows.
const PREVIOUS = "previous release (Node 20)";
const BOTH = `this build (Node ${process.versions.node.split(".")[0]}) | ${PREVIOUS}`;

const started = Date.now();
const log = (line) => process.stderr.write(`${line}\n`);
const elapsed = () => `${((Date.now() - started) / 1000).toFixed(0)} s`;
const rows = [];
const details = {};
/** The rows of one section of the table: budgets, observations, and budgets against a reference. */
const rowsOf = (section) => ({
  budget: (...row) => rows.push(report.budgetRow(section, ...row)),
  observe: (...row) => rows.push(report.observationRow(section, ...row)),
  compare: (...row) => rows.push(report.referenceRow(section, ...row)),
});
const node20Rows = rowsOf("node20");
const thousandths = (value) => value.toFixed(3);
const ratio = (comparison) => `${comparison.ratio.toFixed(3)} (rounds ${comparison.ratios.join(" / ")})`;
const pathOf = (url) => new URL(url).pathname;
const sum = (list, key) => list.reduce((total, item) => total + item[key], 0);
const onLoad = (files, kind) => files.filter((file) => file.phase === "load" && file.kind === kind);

async function bytesSection(server, node20) {
  const { budget, observe } = rowsOf("bytes");
  const page = await measurePage(server.url);
  const [html] = onLoad(page.files, "html");
  const css = onLoad(page.files, "css");
  const js = onLoad(page.files, "js");
  const thirdParty = page.thirdParty.filter((req) => req.phase === "load").length;
  const budgets = [
    ["HTML of / (gzip)", html?.gzip, BUDGETS.htmlGzip, kb],
    [
      "HTML of / as served with br",
      html?.brServedEncoding === "br" ? html.brServed : null,
      BUDGETS.htmlBrServed,
      kb,
    ],
    ["CSS on first visit (gzip)", css.length ? sum(css, "gzip") : null, BUDGETS.cssGzip, kb],
    [`JS on first visit, ${js.length} files (gzip)`, sum(js, "gzip"), BUDGETS.jsGzip, kb],
    ["requests to non-loopback hosts on load", thirdParty, BUDGETS.thirdPartyRequests],
    [
      "render-blocking requests besides the stylesheet",
      page.otherBlocking.length,
      BUDGETS.otherRenderBlocking,
    ],
  ];
  for (const [metric, value, limit, format] of budgets) budget(metric, value, "<=", limit, format);

  for (const file of page.files.filter((file) => file.kind !== "other")) {
    const when = file.phase === "load" ? "" : " loaded later (scroll/form)";
    const br = file.brServedEncoding === "br" ? kb(file.brServed) : `not served (${file.brServedEncoding})`;
    const sizes = `raw ${kb(file.raw)} · gz ${kb(file.gzip)} · br ${br}`;
    observe(`${file.kind.toUpperCase()}${when} ${pathOf(file.url)}`, file.gzip, sizes);
  }
  observe(
    "JS on first visit, raw / br served",
    sum(js, "raw"),
    `${kb(sum(js, "raw"))} / ${kb(sum(js, "brServed"))}`,
  );
  observe("requests on first visit", page.files.filter((file) => file.phase === "load").length + thirdParty);
  for (const entry of page.otherBlocking) observe("render-blocking", entry.url);
  for (const req of page.thirdParty) observe(`non-loopback (${req.phase})`, req.url);
  observe("console errors on first visit", page.consoleErrors.length, page.consoleErrors.join(" | ") || "0");
  // Which packages the first visit pays for, and what each chunk loaded later costs.
  const bundles = analyseBundles(buildDir, root, new Set(js.map((file) => pathOf(file.url))));
  for (const pkg of packagesIn(bundles.filter((chunk) => chunk.firstVisit)).slice(0, 12))
    observe(`first-visit JS from ${pkg.name} (raw, minified)`, pkg.raw, kb(pkg.raw));
  for (const chunk of bundles.filter((c) => !c.firstVisit)) {
    const top = packagesIn([chunk]).map((pkg) => pkg.name);
    observe(
      `not on first visit: ${chunk.path} [${top.slice(0, 3).join(", ")}]`,
      chunk.gzip,
      `gz ${kb(chunk.gzip)}`,
    );
  }
  details.bytes = { ...page, bundles };
  if (!node20) return;

  // A reference that cannot be measured leaves its budgets "not measured" (missed).
  const theirs = await measurePage(node20.url).catch((error) => log(`  ${PREVIOUS}: no bytes: ${error}`));
  const bytes = (v) => `${v.toLocaleString("en-US", { maximumFractionDigits: 0 })} B`;
  const factor = { factor: BUDGETS.node20BytesFactor };
  for (const kind of ["html", "css", "js"])
    for (const [key, encoding] of Object.entries({ gzipServed: "gzip", brServed: "br" })) {
      const metric = `first-visit ${kind.toUpperCase()} ${encoding} as served: ${BOTH}`;
      const reference = theirs ? sum(onLoad(theirs.files, kind), key) : null;
      node20Rows.compare(metric, sum(onLoad(page.files, kind), key), reference, "<=", factor, bytes);
    }
}

async function lighthouseSection(server, node20) {
  const { budget, observe } = rowsOf("lighthouse");
  const saveLhr = (name, lhr) => writeFileSync(`${RESULTS}/lhr-${name}.json`, JSON.stringify(lhr));
  const bare = await startBareServer(bareDocumentResponse());
  const references = [{ key: "reference", name: "bare document", url: `${bare.url}/` }];
  if (node20) references.push({ key: "node20", name: PREVIOUS, url: `${node20.url}/` });
  const how = { mobileOnly, references };
  const save = options["save-lhr"] ? saveLhr : null;
  const result = await runLighthouse(`${server.url}/`, lighthouseRuns, log, save, how).finally(bare.stop);
  const { mobile, desktop, reference: bareDocument } = result;
  for (const [name, figures] of Object.entries({ mobile, desktop }).filter(([, figures]) => figures))
    for (const [category, score] of Object.entries(figures.scores))
      budget(`${name} ${category} (median of ${figures.runs})`, score, ">=", BUDGETS.lighthouseScore);
  // The bare document is this machine's floor at that moment: the page's TBT is judged over it.
  const overFloor = mobile.tbt == null || bareDocument.tbt == null ? null : mobile.tbt - bareDocument.tbt;
  const budgets = [
    ["mobile LCP", mobile.lcp, BUDGETS.mobileLcpMs, ms],
    ["mobile TBT", mobile.tbt, BUDGETS.mobileTbtMs, ms],
    ["mobile CLS", mobile.cls, BUDGETS.mobileCls, thousandths],
    ["mobile TBT minus the bare document's (medians)", overFloor, BUDGETS.mobileTbtOverBareMs, ms],
    [
      "mobile: longest observed task after FCP (median)",
      mobile.longestObservedTaskMs,
      BUDGETS.longestObservedTaskMs,
      ms,
    ],
  ];
  for (const [metric, value, limit, format] of budgets) budget(metric, value, "<=", limit, format);

  observe("mobile FCP / Speed Index", mobile.fcp, `${ms(mobile.fcp)} / ${ms(mobile.si)}`);
  for (const [name, figures] of Object.entries({ mobile, "bare document": bareDocument }))
    for (const [index, run] of figures.perRun.entries())
      observe(`${name} run ${index + 1}: TBT anatomy`, run.tbt, tbtAnatomy(run));
  const desktopFigures = desktop && [desktop.fcp, desktop.lcp, desktop.tbt].map(ms).join(" / ");
  if (desktop)
    observe("desktop FCP / LCP / TBT / CLS", desktop.lcp, `${desktopFigures} / ${thousandths(desktop.cls)}`);
  const failed = Object.entries(result).flatMap(([name, f]) =>
    f.failedAttempts.map((why) => `${name}: ${why}`),
  );
  observe("runs not recorded (runtime error) and run again", failed.length, failed.join("; ") || "0");
  const speed = `${Math.round(mobile.benchmarkIndex ?? 0)} (load average ${os.loadavg()[0].toFixed(2)})`;
  observe("machine speed (Lighthouse benchmarkIndex, median)", mobile.benchmarkIndex, speed);
  observe("LCP element (mobile)", mobile.lcpElement, mobile.lcpElement ?? "?");
  for (const [name, figures] of Object.entries(result))
    for (const audit of figures.failing) {
      const found = [`${audit.title} ${audit.value}`.trim(), ...audit.found].join(" | ");
      observe(`${name} audit not passed (some run): ${audit.category}/${audit.id}`, audit.score, found);
    }
  details.lighthouse = result;
  if (!node20) return;

  const metrics = [
    ["Performance", (f) => f.scores.performance, ">=", { offset: -BUDGETS.node20PerformanceDrop }, String],
    ["TBT", (f) => f.tbt, "<=", { offset: BUDGETS.node20TbtOverMs }, ms],
    ["LCP", (f) => f.lcp, "<=", { factor: BUDGETS.node20LcpFactor }, ms],
    ["CLS", (f) => f.cls, "<=", { offset: BUDGETS.node20ClsOver }, thousandths],
  ];
  for (const [name, read, op, tolerance, format] of metrics) {
    const metric = `mobile ${name} (medians of ${lighthouseRuns}): ${BOTH}`;
    node20Rows.compare(metric, read(mobile), read(result.node20), op, tolerance, format);
  }
}

/**
 * Gated with the figures: a POST figure only means something if every valid post (each its own
 * lead) was answered as sent and reached the function: no 4xx/5xx, rate limit or duplicate (>=: a
 * post still in flight when autocannon stops may reach it uncounted), and no round went unanswered.
 */
function everyPostDelivered(budget, targets) {
  const delivered = (f) => f.sent > 0 && !f.failed && f.reachedFunction >= f.sent && !f.roundsWithoutAnswer;
  const short = Object.entries(targets).filter(([, f]) => !delivered(f));
  const why = short.map(
    ([name, f]) => `${name} ${f.sent}/${f.requests} sent, ${f.reachedFunction} reached it`,
  );
  const metric = "every valid POST answered as sent (303) and reached the function";
  budget(metric, short.length === 0 ? 1 : 0, "=", 1, (v) => (v ? "yes" : `no: ${why.join("; ")}`));
}

const latency = (f) => `${f.rps} rps · p50 ${f.p50 ?? "–"} ms · p99 ${f.p99 ?? "–"} ms`;
const failures = (f) => f.non2xx + f.errors + f.timeouts;
const getLine = (f) =>
  latency(f) + (failures(f) ? ` · ${f.non2xx} non-2xx, ${f.errors} errors, ${f.timeouts} timeouts` : "");
const TARGETS = {
  home: "GET / (br)",
  healthz: "GET /healthz",
  bare: "bare node:http, same bytes",
  campaign: `GET ${CAMPAIGN_QUERY}`,
};

async function loadSection(server, fake, node20) {
  const { budget, observe } = rowsOf("load");
  // The ceiling serves exactly what the app sends a browser for GET /: its headers and br body.
  const home = await fetchWire(`${server.url}/`, "br, gzip");
  const headers = { ...home.headers };
  for (const name of ["content-length", "connection", "keep-alive", "date"]) delete headers[name];
  const bare = await startBareServer({ headers, body: home.body });
  const targets = { app: server, bareUrl: bare.url, referenceUrl: node20?.url, fake };
  const result = await runLoad({ ...targets, duration: LOAD_SECONDS, rounds }, log).finally(bare.stop);
  for (const c of [10, 50]) {
    const get = result.get[c];
    for (const [key, label] of Object.entries(TARGETS))
      observe(`${label} at ${c}, median`, get[key].rps, getLine(get[key]));
    observe(`ratio GET / ÷ GET /healthz at ${c}`, get.toHealthz.ratio, ratio(get.toHealthz));
    // The budgets at 50 connections; at 10 observations.
    const toBare = {
      "GET /": [get.toBare, BUDGETS.homeToBareRatio],
      "campaign link": [get.campaignToBare, BUDGETS.campaignToBareRatio],
    };
    for (const [label, [comparison, limit]] of Object.entries(toBare)) {
      const metric = `ratio ${label} ÷ bare node:http at ${c} (median of rounds)`;
      if (c === 10) observe(metric, comparison.ratio, ratio(comparison));
      else
        budget(metric, comparison.ratio, ">=", limit, (v) =>
          v === comparison.ratio ? ratio(comparison) : v.toFixed(2),
        );
    }
    if (!node20) continue;
    const theirs = get.reference;
    node20Rows.observe(`${PREVIOUS}: GET / (br) at ${c}, median`, theirs.home.rps, getLine(theirs.home));
    node20Rows.observe(
      `${PREVIOUS}: GET /healthz at ${c}, median`,
      theirs.healthz.rps,
      getLine(theirs.healthz),
    );
    const metric = `GET / ÷ bare node:http at ${c} (median of rounds): ${BOTH}`;
    const row = [
      metric,
      get.toBare.ratio,
      theirs.toBare.ratio,
      ">=",
      { factor: BUDGETS.node20HomeToBareFactor },
      thousandths,
    ];
    if (c === 50) node20Rows.compare(...row);
    else node20Rows.observe(metric, row[1], report.referenceRow("node20", ...row).display);
  }
  const getFailures = [10, 50].reduce((n, c) => n + failures(result.get[c].home), 0);
  budget("GET / failures (non-2xx, errors, timeouts), all rounds", getFailures, "=", 0);
  const { post } = result;
  observe(
    "POST /?index (valid form, each its own lead) at 10",
    post.rps,
    `${latency(post)} · ${post.sent} sent, ${post.failed} failed`,
  );
  everyPostDelivered(budget, { "POST /?index": post });
  details.load = result;
}

async function storeSection(fake, dir) {
  const { budget, observe } = rowsOf("store");
  const reference = await prepareReference(REFERENCE_RELEASES.fileStore, log);
  const servers = {};
  let postgres;
  let result;
  try {
    const env = (name, databaseUrl) => ({
      ...benchEnv(fake),
      ...leadStoreEnv(`${dir}/${name}`, databaseUrl),
    });
    servers["file store"] = await startReference(reference, env("file-store"));
    servers.SQLite = await startAppServer(buildDir, env("sqlite"));
    // A missing PostgreSQL throws here: the section fails, it is never skipped.
    postgres = await startPostgres();
    servers.PostgreSQL = await startAppServer(
      buildDir,
      env("postgres", await postgres.createDatabase("bench")),
    );
    await storeReady(servers.SQLite, "sqlite");
    await storeReady(servers.PostgreSQL, "postgres");
    result = await runStore({ targets: servers, fake, duration: LOAD_SECONDS, rounds }, log);
  } finally {
    for (const server of Object.values(servers).reverse()) await server.stop();
    await postgres?.destroy();
  }
  const c = result.connections;
  for (const [name, f] of Object.entries(result.targets)) {
    const cpu = `server CPU ${f.cpuMsPerPost ?? "–"} ms per post`;
    const noAnswer = f.roundsWithoutAnswer ? ` · no answer in ${f.roundsWithoutAnswer} rounds` : "";
    observe(
      `${name}: POST at ${c}, median of ${rounds}`,
      f.rps,
      `${latency(f)} · ${f.sent} sent · ${cpu}${noAnswer}`,
    );
  }
  for (const [name, { ratio: value, ratios }] of Object.entries(result.ratios)) {
    const format = (v) =>
      v === value ? `${v.toFixed(2)} (rounds ${ratios.map((r) => r ?? "none").join(" / ")})` : v.toFixed(2);
    budget(
      `ratio p99 ${name} ÷ file store at ${c} (median of rounds)`,
      value,
      "<=",
      BUDGETS.storePostP99Ratio,
      format,
    );
  }
  everyPostDelivered(budget, result.targets);
  details.store = { reference: reference.commit, ...result };
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

/** Runs one section; a section that throws is a missed budget, and the others still run. */
async function section(name, measure) {
  log(`bench: ${name} (${elapsed()})`);
  try {
    await measure();
  } catch (error) {
    log(`  ${name} failed: ${error?.stack ?? error}`);
    rowsOf(name).budget("section ran to completion", null, "=", 1);
    details[`${name}Error`] = String(error?.message ?? error);
  }
}

async function main() {
  const machineAtStart = machine();
  log(
    `bench: ${machineAtStart.cpus} cores (${machineAtStart.cpuModel}), load ${machineAtStart.loadAverage.join(" ")}`,
  );
  if (!options["skip-build"]) {
    log(`bench: building into ${buildDir} ...`);
    await buildApp(buildDir);
  }
  // Each server's lead store (and the references' files) in a folder of this run, deleted at the end.
  const dataDir = mkdtempSync(join(os.tmpdir(), "bench-leads-"));
  const fake = await startFakeFunction();
  // The server of bytes, lighthouse and load (the store section starts its own).
  const env = { ...benchEnv(fake), ...leadStoreEnv(`${dataDir}/shared`) };
  const server = PAGE_SECTIONS.some((name) => sections.has(name))
    ? await startAppServer(buildDir, env)
    : null;
  let node20 = null;
  try {
    // The previous release, on Node 20, served beside this build for the whole run.
    if (withNode20)
      await section("node20", async () => {
        const reference = await prepareReference(REFERENCE_RELEASES.node20, log);
        node20 = await startReference(reference, { ...benchEnv(fake), ...leadStoreEnv(`${dataDir}/node20`) });
        await storeReady(node20, "sqlite");
        details.node20 = { commit: reference.commit, node: node20.node };
      });
    if (sections.has("bytes")) await section("bytes", () => bytesSection(server, node20));
    if (sections.has("lighthouse")) await section("lighthouse", () => lighthouseSection(server, node20));
    if (sections.has("load")) await section("load", () => loadSection(server, fake, node20));
    if (sections.has("store")) await section("store", () => storeSection(fake, dataDir));
  } finally {
    await node20?.stop();
    await server?.stop();
    await fake.close();
    rmSync(dataDir, { recursive: true, force: true });
  }

  const durationMs = Date.now() - started;
  rowsOf("bench").observe("wall time (limit 300 s)", durationMs, `${(durationMs / 1000).toFixed(0)} s`);
  const missed = report
    .missedBudgets(rows)
    .map((row) => `${row.section}: ${row.metric} = ${row.display} (budget ${row.budget})`);
  const result = {
    date: new Date().toISOString(),
    buildDir,
    machine: { ...machineAtStart, loadAverageAtEnd: machine().loadAverage },
    options: { sections: [...sections], withNode20, lighthouseRuns, rounds, mobileOnly },
    durationMs,
    budgets: BUDGETS,
    missed,
    rows,
    details,
  };
  mkdirSync(RESULTS, { recursive: true });
  // Only a full run is "latest"; a partial one (--only) must not replace its figures.
  const resultFile = only || mobileOnly ? `partial-${[...sections].join("-")}.json` : "latest.json";
  writeFileSync(`${RESULTS}/${resultFile}`, `${JSON.stringify(result, null, 2)}\n`);
  console.log(`\n${report.formatTable(rows)}\n`);
  console.log(
    missed.length
      ? `${missed.length} budget(s) MISSED:\n${missed.map((m) => `  - ${m}`).join("\n")}`
      : "All budgets met.",
  );
  console.log(`Results: bench/results/${resultFile} (${(durationMs / 1000).toFixed(0)} s)`);
  process.exitCode = missed.length ? 1 : 0;
}

main().catch((error) => {
  log(`bench failed: ${error?.stack ?? error}`);
  process.exitCode = 2;
});
