// The times `npm test` ends with (issue 39): each tier's time and the ten slowest files, so that the
// next slow test is seen the day it comes. A vitest reporter (vitest.config.ts adds it after the
// default one) and the pure functions it prints with, which the unit suite tests.
//
// Files run side by side, so three figures per tier: its span (from its first file's start to its
// last file's end, wall clock), the sum of its files' own wall times, and their CPU time (every
// process the file started, counted in a cgroup per file: test/support/cpu-setup.ts). On two busy
// cores the CPU time is what a file costs the run.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";

import { removeRunCgroups } from "./test-cgroups.mjs";

/** The tier of a test file (a path relative to the checkout): unit, browser, processes or http. */
export function tierOf(file, unitFiles) {
  if (unitFiles.has(file)) return "unit";
  const folder = file.split("/")[1];
  if (folder === "e2e") return "browser";
  // Suites that spawn `npm start`, instances, the CLI, PostgreSQL servers or the build.
  if (["ops", "server", "cli", "db", "scripts"].includes(folder)) return "processes";
  return "http";
}

/**
 * Each tier's span, summed time and CPU time, and the `slowest` files (by wall time), from one
 * record per file: `{ file, start, end, cpu }`, times in milliseconds (any common origin), `cpu` in
 * seconds (0 when unknown).
 */
export function summarizeTimes(records, unitFiles, slowest = 10) {
  const tiers = new Map();
  for (const { file, start, end, cpu = 0 } of records) {
    const name = tierOf(file, unitFiles);
    const tier = tiers.get(name) ?? { tier: name, files: 0, start, end, sum: 0, cpu: 0 };
    tiers.set(name, {
      ...tier,
      files: tier.files + 1,
      start: Math.min(tier.start, start),
      end: Math.max(tier.end, end),
      sum: tier.sum + end - start,
      cpu: tier.cpu + cpu,
    });
  }
  const files = records
    .map(({ file, start, end, cpu = 0 }) => ({ file, ms: end - start, cpu }))
    .sort((a, b) => b.ms - a.ms || a.file.localeCompare(b.file));
  return {
    tiers: [...tiers.values()]
      .map(({ start, end, ...tier }) => ({ ...tier, span: end - start }))
      .sort((a, b) => b.span - a.span),
    slowest: files.slice(0, slowest),
  };
}

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

/** The lines printed at the end of a run. */
export function formatTimes({ tiers, slowest }, { cpuFloor = false } = {}) {
  if (tiers.length === 0) return ["Times: no test file ran."];
  const width = Math.max(...slowest.map((entry) => entry.file.length), 0);
  const cpuMeaning = cpuFloor
    ? "CPU: a floor, the worker's and the processes it reaped (no cgroup v2 to count its browsers' here)"
    : "CPU: every process the file started, browsers included";
  return [
    `Times by tier (span: first start to last end; sum: the files one after another; ${cpuMeaning}):`,
    ...tiers.map(
      (tier) =>
        `  ${tier.tier.padEnd(9)} ${String(tier.files).padStart(3)} files  span ${seconds(tier.span).padStart(8)}  sum ${seconds(tier.sum).padStart(8)}  CPU ${seconds(tier.cpu * 1000).padStart(8)}`,
    ),
    `The ${slowest.length} slowest files (wall, CPU):`,
    ...slowest.map(
      (entry) =>
        `  ${entry.file.padEnd(width)}  ${seconds(entry.ms).padStart(8)}  ${seconds(entry.cpu * 1000).padStart(8)}`,
    ),
  ];
}

/** The reporter: records when each file starts and ends, and prints the summary at the end. */
export class TimesReporter {
  /** @param {{ root: string, unitFiles: string[] }} options */
  constructor({ root, unitFiles }) {
    this.root = root;
    this.unitFiles = new Set(unitFiles);
    this.starts = new Map();
    this.records = [];
  }

  onTestModuleStart(testModule) {
    this.starts.set(testModule.moduleId, performance.now());
  }

  onTestModuleEnd(testModule) {
    const start = this.starts.get(testModule.moduleId);
    if (start === undefined) return;
    const { cpuSeconds, cpuCounted } = /** @type {{ cpuSeconds?: number, cpuCounted?: string }} */ (
      testModule.meta()
    );
    if (cpuCounted === "reaped") this.cpuFloor = true;
    this.records.push({
      file: path.relative(this.root, testModule.moduleId),
      start,
      end: performance.now(),
      cpu: cpuSeconds ?? 0,
    });
  }

  onInit() {
    removeRunCgroups(process.pid);
    // The workers are gone only once vitest has closed its pool: remove this run's cgroups then.
    process.once("exit", () => removeRunCgroups(process.pid));
  }

  onTestRunEnd() {
    const times = summarizeTimes(this.records, this.unitFiles);
    console.log(`\n${formatTimes(times, { cpuFloor: this.cpuFloor === true }).join("\n")}\n`);
    // Every file, costliest CPU first, for the one who looks for what to make cheaper next.
    const file = path.join(this.root, "test-results", "times.json");
    mkdirSync(path.dirname(file), { recursive: true });
    const first = Math.min(...this.records.map((record) => record.start));
    const files = this.records
      .map(({ file, start, end, cpu }) => ({
        file,
        tier: tierOf(file, this.unitFiles),
        startS: Math.round((start - first) / 100) / 10, // the schedule: which file the run's end waits on
        wallMs: Math.round(end - start),
        cpu,
      }))
      .sort((a, b) => b.cpu - a.cpu || a.file.localeCompare(b.file));
    writeFileSync(file, `${JSON.stringify({ cpuFloor: this.cpuFloor === true, files }, null, 1)}\n`);
    console.log(`Every file's time and CPU: ${path.relative(process.cwd(), file)}`);
  }
}
