#!/usr/bin/env node
// `npm run flakes`: hunts tests that fail by chance (issue 35). Builds once, then runs the chosen
// test files (or the whole suite) N times in a row, optionally with load beside each run, and
// prints every test that failed once, with how many runs it failed in and the first message.
// A test that fails by chance is a defect to fix at its cause: this finds them, it retries nothing.
//
//   npm run flakes -- --runs=5 test/e2e/engines-visitor.test.ts
//   npm run flakes -- --runs=3 --load            # the whole suite, the unit suite looping beside it
//
// Options: --runs=N (default 5), --load (the unit suite in a loop beside each run: the two cores
// busy, as in CI with another suite). Everything else goes to vitest as `npm test -- …` takes it.
// Exit 1 when any test failed.
// Environment: REMIX_BUILD_DIR (default .builds/flakes: never the build a dev server serves).
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

import { failuresOf, formatTally, tally } from "./flakes-report.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));

function parseArgs(argv) {
  let runs = 5;
  let load = false;
  const rest = [];
  for (const arg of argv) {
    if (arg.startsWith("--runs=")) runs = Number(arg.slice("--runs=".length));
    else if (arg === "--load") load = true;
    else rest.push(arg);
  }
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs must be a whole number of at least 1`);
  return { runs, load, rest };
}

/** The unit suite in a loop until `stop()`: load beside a run. */
function startLoad(env) {
  let stopped = false;
  let child;
  const loop = () => {
    if (stopped) return;
    child = spawn(
      process.execPath,
      [`${root}node_modules/vitest/vitest.mjs`, "run", "--config", "vitest.unit.config.ts"],
      {
        cwd: root,
        env,
        stdio: "ignore",
      },
    );
    child.on("exit", loop);
  };
  loop();
  return () => {
    stopped = true;
    child?.kill("SIGTERM");
  };
}

async function main() {
  const { runs, load, rest } = parseArgs(process.argv.slice(2));
  const env = { ...process.env, REMIX_BUILD_DIR: process.env.REMIX_BUILD_DIR || ".builds/flakes" };
  const build = spawnSync(process.execPath, [`${root}scripts/build.mjs`], {
    cwd: root,
    env,
    stdio: "inherit",
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
  const reports = mkdtempSync(join(tmpdir(), "flakes-"));
  const failuresByRun = [];
  try {
    for (let run = 1; run <= runs; run++) {
      const output = join(reports, `run-${run}.json`);
      const stopLoad = load ? startLoad(env) : () => undefined;
      const started = Date.now();
      const result = spawnSync(
        process.execPath,
        [
          `${root}test/run-all.mjs`,
          "--reporter=dot",
          "--reporter=json",
          `--outputFile.json=${output}`,
          ...rest,
        ],
        { cwd: root, env: { ...env, SKIP_BUILD: "1" }, stdio: ["ignore", "inherit", "inherit"] },
      );
      stopLoad();
      let failures;
      try {
        failures = failuresOf(JSON.parse(readFileSync(output, "utf8")), root);
      } catch {
        failures = [{ test: "(the run itself)", message: `exit ${result.status}, no report` }];
      }
      failuresByRun.push(failures);
      console.log(
        `\nflakes: run ${run}/${runs}${load ? " (with load)" : ""}: ${failures.length} failed, ` +
          `exit ${result.status}, ${Math.round((Date.now() - started) / 1000)} s`,
      );
    }
  } finally {
    rmSync(reports, { recursive: true, force: true });
  }
  const entries = tally(failuresByRun);
  console.log(`\n${formatTally(entries, runs)}`);
  process.exit(entries.length > 0 ? 1 : 0);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((error) => {
    console.error(`npm run flakes: ${error.message}`);
    process.exit(2);
  });
}
