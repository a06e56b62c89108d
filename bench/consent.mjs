#!/usr/bin/env node
// The consent bar's cost (decision 047): mobile Lighthouse on the home page of this build served
// twice, with GA_MEASUREMENT_ID set (the bar shown: a first visit has made no choice) and without,
// runs interleaved in one Chromium, so both medians come from the same machine and load. Prints
// each run and both medians of CLS and TBT; exits 1 when CLS with GA is not 0 or its TBT median is
// over the one without GA by more than the noise allowed.
//
// Usage: npm run build, then node bench/consent.mjs [--runs=3]
// Environment: REMIX_BUILD_DIR (default build/), CHROME_PATH (scripts/chromium.mjs).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";

import { runLighthouse } from "./lib/lighthouse.mjs";
import { leadStoreEnv, startAppServer } from "./lib/servers.mjs";

const TBT_NOISE_MS = 25;
const runs = Number(parseArgs({ options: { runs: { type: "string", default: "3" } } }).values.runs);
const buildDir = process.env.REMIX_BUILD_DIR || "build";
const dataDir = mkdtempSync(join(tmpdir(), "consent-bench-"));
/** A server of this build with its own empty lead store and no contact function. */
const serve = (name, gaId) =>
  startAppServer(buildDir, {
    ...leadStoreEnv(join(dataDir, name)),
    SUPABASE_URL: undefined,
    SUPABASE_ANON_KEY: undefined,
    GA_MEASUREMENT_ID: gaId,
  });

const withGa = await serve("with-ga", "G-CONSENTBENCH");
const withoutGa = await serve("without-ga", "");
try {
  const references = [{ key: "withoutGa", name: "without GA_MEASUREMENT_ID", url: `${withoutGa.url}/` }];
  const results = await runLighthouse(`${withGa.url}/`, runs, console.log, null, {
    mobileOnly: true,
    references,
  });
  const [ga, none] = [results.mobile, results.withoutGa];
  const figures = (f) => ({ cls: f.cls, tbt: f.tbt, lcp: f.lcp });
  console.log(
    JSON.stringify({ event: "consent_bench", runs, withGa: figures(ga), withoutGa: figures(none) }),
  );
  const failures = [];
  if (ga.cls !== 0) failures.push(`CLS with GA is ${ga.cls}, not 0`);
  if (ga.tbt > none.tbt + TBT_NOISE_MS)
    failures.push(
      `TBT with GA ${Math.round(ga.tbt)} ms is over ${Math.round(none.tbt)} ms + ${TBT_NOISE_MS} ms`,
    );
  for (const failure of failures) console.error(`consent bench: ${failure}`);
  process.exitCode = failures.length ? 1 : 0;
} finally {
  await withGa.stop();
  await withoutGa.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
