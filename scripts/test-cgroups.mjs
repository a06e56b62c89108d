// Where `npm test` counts each test file's CPU time (test/support/cpu-setup.ts): one cgroup v2 per
// run, `npm-test-<vitest's pid>`, beside the cgroup the run started in, with one cgroup per file's
// worker inside it. The reporter (scripts/test-times.mjs) removes a run's cgroups when it ends, and
// those of runs that died before they could.
import { existsSync, readdirSync, readFileSync, rmdirSync } from "node:fs";
import { join } from "node:path";

/** The cgroup v2 folder this process is in, or null without a cgroup v2 hierarchy. */
function ownCgroupFolder() {
  try {
    const mount = readFileSync("/proc/self/mountinfo", "utf8")
      .split("\n")
      .map((line) => line.split(" "))
      .find((fields) => fields[fields.indexOf("-") + 1] === "cgroup2");
    const path = /^0::(.*)$/m.exec(readFileSync("/proc/self/cgroup", "utf8"))?.[1];
    if (!mount || path === undefined) return null;
    return join(mount[4], path);
  } catch {
    return null;
  }
}

/** The cgroup of one test file's worker (null without cgroup v2). */
export function fileCgroup(runPid, workerPid) {
  const own = ownCgroupFolder();
  if (!own) return null;
  // A worker already moved into its file's cgroup (none is reused today) stays in that run's folder.
  const base = /\/npm-test-\d+\/file-\d+$/.test(own) ? join(own, "..", "..") : own;
  return join(base, `npm-test-${runPid}`, `file-${workerPid}`);
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === "EPERM";
  }
}

function tryRmdir(folder) {
  try {
    rmdirSync(folder);
  } catch {
    // Not empty yet.
  }
}

/** Removes the cgroups of this run (runPid) and of runs whose process is gone; keeps any still in use. */
export function removeRunCgroups(runPid) {
  const own = ownCgroupFolder();
  if (!own || !existsSync(own)) return;
  for (const entry of readdirSync(own)) {
    const pid = /^npm-test-(\d+)$/.exec(entry)?.[1];
    if (!pid || (Number(pid) !== runPid && alive(Number(pid)))) continue;
    const run = join(own, entry);
    // One whose processes still live (a browser closing) stays: the next run removes it.
    for (const file of readdirSync(run)) if (file.startsWith("file-")) tryRmdir(join(run, file));
    tryRmdir(run);
  }
}
