import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, expect } from "vitest";

import { formatViolations, hollowRun } from "./checker";
import { chooseSeed } from "./random";
import { type ClockProof, type HistoryOptions, type HistoryRun, runHistory } from "./scenario";

/**
 * What the history test's two files share: one seed per file, printed with the command that replays
 * it. HISTORY_SOAK_SECONDS=600 makes the faults last that long (docs/testing.md).
 */

/** The function's timeout in the servers: short, so that hanging calls, leases and retries come often. */
const TIMEOUT_MS = 1_500;
/** The longest the dispatchers may take to deliver what is pending once the faults stop (a lease is 6.5 s). */
const QUIET_MS = 45_000;

export function historySuite(file: string, chaosSeconds: number) {
  const seed = chooseSeed();
  const soakSeconds = Number(process.env.HISTORY_SOAK_SECONDS ?? "0");
  if (!Number.isFinite(soakSeconds) || soakSeconds < 0)
    throw new Error(
      `HISTORY_SOAK_SECONDS must be a number of seconds, not "${process.env.HISTORY_SOAK_SECONDS}"`,
    );
  const replay = `HISTORY_SEED=${seed}${soakSeconds ? ` HISTORY_SOAK_SECONDS=${soakSeconds}` : ""} CI=true SKIP_BUILD=1 npx vitest run ${file}`;
  console.log(
    `history test: seed ${seed}${soakSeconds ? `, soak ${soakSeconds} s` : ""} (replay: ${replay})`,
  );
  /** How long faults are injected. */
  const chaosMs = (soakSeconds || chaosSeconds) * 1000;

  const withSeed = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      if (error instanceof Error) error.message = `seed ${seed} (replay: ${replay}): ${error.message}`;
      throw error;
    }
  };

  /** The skewed instance really ran ahead (a faketime that did nothing would prove nothing), the others did not. */
  const expectClocks = (clocks: ClockProof[]) => {
    const table = clocks
      .map((clock) => `${clock.caller}: ${(clock.aheadMs / 1000).toFixed(1)} s ahead`)
      .join(", ");
    for (const clock of clocks.filter((clock) => clock.skew))
      expect(
        clock.aheadMs,
        `seed ${seed}: ${clock.caller} runs under faketime ${clock.skew}, its Date header says ${table}`,
      ).toBeGreaterThanOrEqual(15_000);
    for (const clock of clocks.filter((clock) => !clock.skew))
      expect(Math.abs(clock.aheadMs), `seed ${seed}: clocks ${table}`).toBeLessThan(5_000);
  };

  const report = (run: HistoryRun) => {
    console.log(
      `history test (${run.history.engine}, seed ${seed}): ${JSON.stringify(run.counts)}, cases per rule ${JSON.stringify(run.cases)}, settled ${
        run.quiet.settledAfterMs === null
          ? "never"
          : `after ${(run.quiet.settledAfterMs / 1000).toFixed(1)} s`
      } of quiet; the last kind of fault met: ${JSON.stringify(run.lastKindMet)}`,
    );
    expect(
      run.violations.length,
      `${formatViolations(run.history, run.violations, replay, 4)}\n\nEvery violation: ${join(run.dir, "violations.txt")}; the record (history.json, output.log): ${run.dir}`,
    ).toBe(0);
    // A run that proves nothing fails too (after the violations, which say more when both fail).
    expect(hollowRun(run.history), `seed ${seed}: the run tested too little (${run.dir})`).toEqual([]);
    rmSync(run.dir, { recursive: true, force: true });
  };

  const runChecked = async (
    options: Omit<HistoryOptions, "seed" | "timeoutMs" | "quietMs" | "chaosMs">,
  ): Promise<HistoryRun> => {
    const run = await runHistory({ ...options, seed, chaosMs, timeoutMs: TIMEOUT_MS, quietMs: QUIET_MS });
    try {
      expectClocks(run.clocks);
      report(run);
    } finally {
      await run.stop();
    }
    return run;
  };

  const dataDirs: string[] = [];
  afterAll(() => {
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  });
  const dataDir = (prefix: string) => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    dataDirs.push(dir);
    return dir;
  };

  return {
    withSeed,
    runChecked,
    dataDir,
    /** The faults may go on up to four times chaosMs, until every kind has happened (runHistory). */
    testTimeout: 4 * chaosMs + QUIET_MS + 90_000,
  };
}
