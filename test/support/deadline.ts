import { readFileSync } from "node:fs";

import { descendantsOf } from "./npm";

/** A step that did not answer in time (an error of its own, so a caller can add what it saw). */
export class DeadlineError extends Error {}

/** The promise's result, or an error naming `what` once `ms` have passed (a hung driver never answers). */
export async function withDeadline<T>(what: string, promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeadlineError(`${what} did not answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Each process's name, state and CPU seconds over `sampleMs`, for an error message: when a command
 * hangs, it tells a process busy computing from everything asleep waiting for something.
 */
export async function treeActivity(pid: number, sampleMs = 1_000): Promise<string> {
  const read = (id: number) => {
    try {
      const stat = readFileSync(`/proc/${id}/stat`, "utf8");
      const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      // utime and stime, in clock ticks (100 a second on Linux), are fields 14 and 15 of stat.
      return { name, state: fields[0], ticks: Number(fields[11]) + Number(fields[12]) };
    } catch {
      return undefined;
    }
  };
  const pids = [pid, ...descendantsOf(pid)];
  const before = new Map(pids.map((id) => [id, read(id)]));
  await new Promise((resolve) => setTimeout(resolve, sampleMs));
  return pids
    .map((id) => {
      const [was, now] = [before.get(id), read(id)];
      if (!now) return `${id} gone`;
      const busy = was ? ((now.ticks - was.ticks) / 100).toFixed(2) : "?";
      return `${id} ${now.name} ${now.state} ${busy} s CPU in ${sampleMs / 1000} s`;
    })
    .join("; ");
}
