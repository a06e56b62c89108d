/**
 * A setup file of every test file (vitest.config.ts): the CPU time the file cost the machine, handed
 * to the times reporter (scripts/test-times.mjs) in the file's meta. Files run side by side on two
 * cores, so what a file costs the run is its CPU time, not its wall time.
 *
 * Counted with a cgroup where the kernel lets this process make one (cgroup v2, as root on CI's
 * machines): the file's worker moves itself into a cgroup of its own, which every process it starts
 * joins, so a browser's renderers are counted too, though they outlive their parent and are never
 * reaped by the worker (they were half of the run's CPU time, and uncounted before). Elsewhere, the
 * worker's own time and that of the processes it reaped (/proc/self/stat), marked as a floor.
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
