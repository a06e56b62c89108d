/**
 * A setup file of every test file (vitest.config.ts): the CPU time the file cost, its worker's and
 * that of every process it started and reaped (servers, browsers, PostgreSQL), handed to the times
 * reporter (scripts/test-times.mjs) in the file's meta. Files run side by side on two cores, so
 * what a file costs the machine is its CPU time, not its wall time.
 */
import { readFileSync } from "node:fs";

import { afterAll } from "vitest";

/** CPU seconds of this process and its reaped children (/proc/self/stat: utime, stime, cutime, cstime). */
function cpuSeconds(): number {
  const stat = readFileSync("/proc/self/stat", "utf8");
  // The fields after the command's closing parenthesis; utime is the 12th of them.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = [11, 12, 13, 14].reduce((sum, index) => sum + Number(fields[index]), 0);
  return ticks / 100; // USER_HZ, 100 on Linux
}

const start = cpuSeconds();

// eslint-disable-next-line no-empty-pattern -- vitest reads the first parameter as fixtures: it must be a pattern
afterAll(({}, file) => {
  (file.meta as { cpuSeconds?: number }).cpuSeconds = cpuSeconds() - start;
});
