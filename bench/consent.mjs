#!/usr/bin/env node
// The consent bar's cost (decision 047, issue 52): mobile Lighthouse on the home page of this build
// served twice, with GA_MEASUREMENT_ID set (the bar shown: a first visit has made no choice) and
// without, runs interleaved in one Chromium, so both medians come from the same machine and load.
// Prints each run and both medians of CLS and TBT; exits 1 when CLS with GA is not 0 or its TBT
// median is over the one without GA by more than the noise allowed (--tbt-slack-ms, default 25).
//
// Usage: npm run build, then node bench/consent.mjs [--runs=3] [--tbt-slack-ms=25]
// Environment: REMIX_BUILD_DIR (default build/), CHROME_PATH (scripts/chromium.mjs).
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { startServer } from "../test/support/server-process.mjs";
import { runLighthouse } from "./lib/lighthouse.mjs";

const option = (name, fallback) => {
  const arg = process.argv.slice(2).find((a) => a.startsWith(`--${name}=`));
  return arg ? Number(arg.slice(name.length + 3)) : fallback;
};
const runs = option("runs", 3);
const slack = option("tbt-slack-ms", 25);
const buildDir = process.env.REMIX_BUILD_DIR ?? "build";

/** A server of this build with its own empty lead store; `env` on top. */
function serve(env) {
  const dir = mkdtempSync(join(tmpdir(), "consent-bench-"));
  return startServer({
    buildDir,
    readyPath: "/healthz",
    env: {
      SUPABASE_URL: undefined,
      SUPABASE_ANON_KEY: undefined,
      DATABASE_URL: undefined,
      LEADS_DATABASE_FILE: join(dir, "leads.sqlite"),
      ...env,
    },
  });
}

const withGa = await serve({ GA_MEASUREMENT_ID: "G-CONSENTBENCH" });
const withoutGa = await serve({ GA_MEASUREMENT_ID: "" });
try {
  const results = await runLighthouse(`${withGa.url}/`, runs, (line) => console.log(line), null, {
    mobileOnly: true,
    references: [{ key: "withoutGa", name: "without GA_MEASUREMENT_ID", url: `${withoutGa.url}/` }],
  });
  const ga = results.mobile;
  const none = results.withoutGa;
  console.log(
    JSON.stringify({
      event: "consent_bench",
      runs,
      withGa: { cls: ga.cls, tbt: ga.tbt, lcp: ga.lcp },
      withoutGa: { cls: none.cls, tbt: none.tbt, lcp: none.lcp },
    }),
  );
  const failures = [];
  if (ga.cls !== 0) failures.push(`CLS with GA is ${ga.cls}, not 0`);
  if (ga.tbt > none.tbt + slack)
    failures.push(`TBT with GA ${Math.round(ga.tbt)} ms is over ${Math.round(none.tbt)} ms + ${slack} ms`);
  for (const failure of failures) console.error(`consent bench: ${failure}`);
  process.exitCode = failures.length ? 1 : 0;
} finally {
  await withGa.stop();
  await withoutGa.stop();
}
