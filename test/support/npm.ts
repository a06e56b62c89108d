import { type ChildProcess, spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { connect } from "node:net";

import { root } from "./server-process.mjs";

export interface NpmRun {
  process: ChildProcess;
  /** npm's own PID: what a process manager or a terminal signals. */
  pid: number;
  output(): string;
  /** What the command itself printed, without npm's banner and npm's own warn/error lines. */
  ownLines(): string[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function runNpm(
  args: string[],
  { cwd = root, env = {} }: { cwd?: string; env?: Record<string, string | undefined> } = {},
): NpmRun {
  const childEnv: Record<string, string | undefined> = { ...process.env, ...env };
  for (const key of Object.keys(childEnv)) if (childEnv[key] === undefined) delete childEnv[key];
  const child = spawn("npm", args, {
    cwd,
    env: childEnv as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  child.stdout!.on("data", (chunk: Buffer) => (log += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (log += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  return {
    process: child,
    pid: child.pid!,
    output: () => log,
    ownLines: () =>
      log
        .split("\n")
        .filter(
          (line) => line.trim() !== "" && !/^npm (warn|error|notice)\b/.test(line) && !/^> /.test(line),
        ),
    exited,
  };
}

export function childrenOf(pid: number): number[] {
  return readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .flatMap((name) => {
      try {
        const stat = readFileSync(`/proc/${name}/stat`, "utf8");
        // pid (comm) state ppid ...: comm may hold spaces, so read after its closing parenthesis.
        const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
        return ppid === pid ? [Number(name)] : [];
      } catch {
        return [];
      }
    });
}

export function descendantsOf(pid: number): number[] {
  return childrenOf(pid).flatMap((child) => [child, ...descendantsOf(child)]);
}

/**
 * Returns the PIDs reached. The root goes first, so a stopped parent forks no new child while its
 * tree is read, and re-read until no new descendant shows up; to kill, use `killTree`. A process
 * that ends on its own meanwhile (a database backend whose client hung up) needs no signal.
 */
export function signalTree(
  pid: number,
  signal: NodeJS.Signals,
  readDescendants: (pid: number) => number[] = descendantsOf,
): number[] {
  const reached: number[] = [];
  const send = (target: number) => {
    try {
      process.kill(target, signal);
      reached.push(target);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ESRCH") throw error;
    }
  };
  send(pid);
  if (signal === "SIGSTOP") untilStopped(reached);
  const seen = new Set([pid]);
  for (;;) {
    const fresh = readDescendants(pid).filter((child) => !seen.has(child));
    if (fresh.length === 0) return reached;
    for (const child of fresh) {
      seen.add(child);
      send(child);
    }
    if (signal === "SIGSTOP") untilStopped(reached);
  }
}

/** A process's state letter from /proc (R running, S sleeping, T stopped, Z zombie); null: gone. */
function stateOf(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.charAt(stat.lastIndexOf(")") + 2);
  } catch {
    return null;
  }
}

/**
 * `kill` only queues a signal: a running process stops when it is next scheduled, possibly after
 * the tree was read as done, and could still fork a child the reading missed. So the tree is read
 * again only once every process signalled so far has really stopped.
 */
function untilStopped(pids: number[]): void {
  const pause = new Int32Array(new SharedArrayBuffer(4));
  const deadline = Date.now() + 10_000;
  while (pids.some((pid) => !["T", "t", "Z", null].includes(stateOf(pid)))) {
    if (Date.now() > deadline)
      throw new Error(
        `SIGSTOP: still running after 10 s: ${pids.filter((pid) => stateOf(pid) === "R").join(", ")}`,
      );
    Atomics.wait(pause, 0, 0, 1);
  }
}

/** Stopped first: a killed parent's children would go to init at once and no longer be found. */
export function killTree(pid: number): void {
  for (const target of signalTree(pid, "SIGSTOP")) {
    try {
      process.kill(target, "SIGKILL");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ESRCH") throw error;
    }
  }
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  // A zombie has exited; only its parent has not read its status yet.
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

export function isListening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

export async function waitFor(
  what: string,
  check: () => boolean | Promise<boolean>,
  timeoutMs = 60_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Throws with npm's output as soon as the run ends. */
export async function waitForStatus(
  run: NpmRun,
  url: string,
  status = 200,
  timeoutMs = 90_000,
): Promise<void> {
  let ended = false;
  void run.exited.then(() => (ended = true));
  await waitFor(
    `${url} answering ${status}`,
    async () => {
      if (ended) throw new Error(`npm ended before ${url} answered:\n${run.output()}`);
      try {
        const res = await fetch(url);
        await res.arrayBuffer();
        return res.status === status;
      } catch {
        return false;
      }
    },
    timeoutMs,
  );
}

/** The local addresses (hex, as in /proc/net/tcp*) of sockets listening on `port`. */
export function listeningAddresses(port: number): string[] {
  const hexPort = port.toString(16).toUpperCase().padStart(4, "0");
  return ["/proc/net/tcp", "/proc/net/tcp6"].flatMap((file) => {
    let text = "";
    try {
      text = readFileSync(file, "utf8");
    } catch {
      return [];
    }
    return text
      .split("\n")
      .slice(1)
      .map((line) => line.trim().split(/\s+/))
      .filter((fields) => fields[3] === "0A" && fields[1]?.endsWith(`:${hexPort}`))
      .map((fields) => fields[1]!.split(":")[0]!);
  });
}

export interface LeadsRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * By default the command `npm run leads` execs, since npm adds nothing but half a CPU second per
 * run; `via: "npm"` runs it as a shell user types it. Resolves on "close", so no output is missed.
 */
export function runLeadsCli(
  args: string[],
  env: Record<string, string | undefined> = {},
  via: "node" | "npm" = "node",
): Promise<LeadsRun> {
  const childEnv: Record<string, string | undefined> = { ...process.env, ...env };
  for (const key of Object.keys(childEnv)) if (childEnv[key] === undefined) delete childEnv[key];
  const [command, ...commandArgs] =
    via === "npm"
      ? ["npm", "run", "--silent", "leads", "--", ...args]
      : [process.execPath, "scripts/leads.mjs", ...args];
  return new Promise((resolve, reject) => {
    const child = spawn(command!, commandArgs, { cwd: root, env: childEnv as NodeJS.ProcessEnv });
    let stdout = "";
    let stderr = "";
    child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}
