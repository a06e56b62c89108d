import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";

import { afterEach, describe, expect, it } from "vitest";

import { descendantsOf, isAlive, killTree, signalTree } from "../support/npm";

/**
 * The helpers the ops tests use to freeze a database server or to clean up after `npm start`. A
 * process may end between the reading of the tree and its signal (`kill ESRCH`): these trees fork
 * and reap a child without pause, so that race happens here on purpose, many times.
 */
function state(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
  } catch {
    return null;
  }
}

/** sh → (sh → (sleep, and `true` forked and reaped in a loop when `busy`), sleep) */
function startTree({ busy = true } = {}) {
  const inner = busy ? "sleep 300 & while :; do true & wait; done" : "sleep 300 & wait";
  const child = spawn("sh", ["-c", `sh -c "${inner}" & sleep 300 & wait`], { stdio: "ignore" });
  return child.pid!;
}

async function untilTreeHas(pid: number, count: number) {
  for (let i = 0; i < 200 && descendantsOf(pid).length < count; i++)
    await new Promise((resolve) => setTimeout(resolve, 10));
}

const roots: number[] = [];
afterEach(() => {
  for (const pid of roots.splice(0)) killTree(pid);
});

describe("signalTree and killTree", () => {
  it("SIGSTOP reaches the root and every descendant, while children come and go, and never throws ESRCH", async () => {
    for (let round = 0; round < 25; round++) {
      const pid = startTree();
      roots.push(pid);
      await untilTreeHas(pid, 3);
      const stopped = signalTree(pid, "SIGSTOP");
      expect(stopped[0]).toBe(pid);
      // Everything still running in the tree is stopped (T); a child that ended meanwhile is a
      // zombie (Z) or gone, and nothing new can fork any more.
      for (const member of [pid, ...descendantsOf(pid)]) expect(["T", "Z", null]).toContain(state(member));
      expect(stopped.length).toBeGreaterThanOrEqual(4);
      for (const member of stopped) {
        try {
          process.kill(member, "SIGCONT");
        } catch {
          // ended while stopped: nothing to resume
        }
      }
    }
  }, 60_000);

  it("a descendant that ends between the reading of the tree and its signal is skipped, not an error", async () => {
    const pid = startTree({ busy: false });
    roots.push(pid);
    await untilTreeHas(pid, 3);
    const ended = spawn("true");
    await new Promise((resolve) => ended.once("exit", resolve));
    // `ended` is reaped now: its PID names no process, as a backend's does once it has gone.
    const stopped = signalTree(pid, "SIGSTOP", (root) => [ended.pid!, ...descendantsOf(root)]);
    expect(stopped).not.toContain(ended.pid);
    expect(stopped).toEqual([pid, ...descendantsOf(pid)]);
    for (const member of stopped) expect(state(member)).toBe("T");
  });

  it("killTree leaves no process behind, grandchildren included (a killed parent would hand them to init)", async () => {
    const pid = startTree();
    roots.push(pid);
    await untilTreeHas(pid, 3);
    const members = [pid, ...descendantsOf(pid)];
    killTree(pid);
    for (let i = 0; i < 200 && members.some(isAlive); i++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(members.filter(isAlive)).toEqual([]);
  });
});
