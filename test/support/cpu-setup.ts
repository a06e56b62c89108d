/**
 * Each test file's CPU time, for the times reporter (scripts/test-times.mjs): files run side by side
 * on two cores, so what a file costs the run is its CPU time, not its wall time. A cgroup of the
 * worker's own also counts a browser's renderers, which the worker never reaps; without one (not
 * root, no cgroup v2), /proc/self/stat gives only a floor.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

import { afterAll } from "vitest";

import { fileCgroup } from "../../scripts/test-cgroups.mjs";

/** CPU seconds of this process and its reaped children (/proc/self/stat: utime, stime, cutime, cstime). */
function reapedCpuSeconds(): number {
  const stat = readFileSync("/proc/self/stat", "utf8");
  // The fields after the command's closing parenthesis; utime is the 12th of them.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = [11, 12, 13, 14].reduce((sum, index) => sum + Number(fields[index]), 0);
  return ticks / 100; // USER_HZ, 100 on Linux
}

/** This worker's own cgroup, or null where none can be made (not root, no cgroup v2). */
function joinOwnCgroup(): string | null {
  const folder = fileCgroup(process.ppid, process.pid);
  if (!folder) return null;
  try {
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, "cgroup.procs"), String(process.pid));
    return folder;
  } catch {
    return null;
  }
}

function cgroupCpuSeconds(folder: string): number {
  const usage = /^usage_usec (\d+)$/m.exec(readFileSync(join(folder, "cpu.stat"), "utf8"));
  return usage ? Number(usage[1]) / 1e6 : 0;
}

const cgroup = joinOwnCgroup();
const start = cgroup ? cgroupCpuSeconds(cgroup) : reapedCpuSeconds();

// eslint-disable-next-line no-empty-pattern -- vitest reads the first parameter as fixtures: it must be a pattern
afterAll(({}, file) => {
  // The file's own hooks ran before this one (vitest runs after-hooks last-registered first): its
  // browsers and servers are closed.
  const meta = file.meta as { cpuSeconds?: number; cpuCounted?: "cgroup" | "reaped" };
  meta.cpuSeconds = (cgroup ? cgroupCpuSeconds(cgroup) : reapedCpuSeconds()) - start;
  meta.cpuCounted = cgroup ? "cgroup" : "reaped";
});
