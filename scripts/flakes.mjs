#!/usr/bin/env node
// `npm run flakes`: hunts tests that fail by chance. Builds once, then runs the chosen test files
// (or the whole suite) N times in a row, optionally with load beside each run, and prints every test
// that failed once, with the runs it failed in and its first message. A test that fails by chance
// is a defect to fix at its cause: this finds them, it retries nothing. Exit 1 when any test failed.
//
//   npm run flakes -- --runs=5 --load [files]
//
// --runs=N (default 5); --load: the unit suite in a loop beside each run (the two cores busy, as in
// CI with another suite). Everything else goes to vitest as `npm test -- …` takes it.
// Environment: REMIX_BUILD_DIR (default .builds/flakes: never the build a dev server serves).
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

import { failuresOf, formatTally, tally } from "./flakes-report.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const args = process.argv.slice(2);
const runs = Number(args.find((arg) => arg.startsWith("--runs="))?.slice("--runs=".length) ?? 5);
const load = args.includes("--load");
const vitestArgs = args.filter((arg) => arg !== "--load" && !arg.startsWith("--runs="));
if (!Number.isInteger(runs) || runs < 1) {
  console.error("npm run flakes: --runs must be a whole number of at least 1");
  process.exit(2);
}
const env = { ...process.env, REMIX_BUILD_DIR: process.env.REMIX_BUILD_DIR || ".builds/flakes" };

/** The unit suite in a loop until the returned function is called: load beside a run. */
function startLoad() {
  let child;
  const loop = () => {
    const vitest = [`${root}node_modules/vitest/vitest.mjs`, "run", "--config", "vitest.unit.config.ts"];
    child = spawn(process.execPath, vitest, { cwd: root, env, stdio: "ignore" });
    child.on("exit", loop);
  };
  loop();
  return () => {
    child.removeListener("exit", loop);
    child.kill("SIGTERM");
  };
}

const build = spawnSync(process.execPath, [`${root}scripts/build.mjs`], { cwd: root, env, stdio: "inherit" });
if (build.status !== 0) process.exit(build.status ?? 1);
const reports = mkdtempSync(join(tmpdir(), "flakes-"));
const failuresByRun = [];
try {
  for (let run = 1; run <= runs; run++) {
    const output = join(reports, `run-${run}.json`);
    const stopLoad = load ? startLoad() : () => {};
    const started = Date.now();
    const reporters = ["--reporter=dot", "--reporter=json", `--outputFile.json=${output}`];
    const result = spawnSync(process.execPath, [`${root}test/run-all.mjs`, ...reporters, ...vitestArgs], {
      cwd: root,
      env: { ...env, SKIP_BUILD: "1" },
      stdio: ["ignore", "inherit", "inherit"],
    });
    stopLoad();
    let failures;
    try {
      failures = failuresOf(JSON.parse(readFileSync(output, "utf8")), root);
    } catch {
      failures = [{ test: "(the run itself)", message: `exit ${result.status}, no report` }];
    }
    failuresByRun.push(failures);
    const seconds = Math.round((Date.now() - started) / 1000);
    console.log(
      `\nflakes: run ${run}/${runs}${load ? " (with load)" : ""}: ${failures.length} failed, exit ${result.status}, ${seconds} s`,
    );
  }
} finally {
  rmSync(reports, { recursive: true, force: true });
}
const entries = tally(failuresByRun);
console.log(`\n${formatTally(entries, runs)}`);
process.exit(entries.length > 0 ? 1 : 0);
