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

/** Runs `npm <args>` as a shell user would (`npm start`, `npm run dev`), in `cwd`. */
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

/** The PIDs whose parent is `pid`, read from /proc (Linux). */
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

/** Every descendant of `pid`. */
export function descendantsOf(pid: number): number[] {
  return childrenOf(pid).flatMap((child) => [child, ...descendantsOf(child)]);
}

/**
 * Sends `signal` to `pid` and then to every descendant, and returns the PIDs it reached.
 * The root goes first, so a stopped parent forks no new child while its tree is read; the tree
 * is read again until no new descendant shows up. For a signal that ends processes, use
 * `killTree`: a killed parent's children would leave its tree before they are found. A process that ends on its own
 * meanwhile (a database backend whose client hung up) is not an error: it needs no signal.
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
 * Waits (synchronously, 1 ms at a time, at most 10 s) until each of `pids` is stopped, a zombie or
 * gone. `kill` only queues a signal: a process that was running stops when it is next scheduled,
 * which on a loaded machine came after the tree was read as done (a CI run saw one still "R"), and
 * it could still fork a child the reading had missed. So the tree is read again only once every
 * process signalled so far has really stopped.
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

/**
 * Kills `pid` and every descendant. The tree is stopped first: a killed parent's children would
 * be handed to init at once and could no longer be found as its descendants.
 */
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

/** Whether something accepts connections on 127.0.0.1:`port`. */
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

/** Polls until `check` holds, or throws with `what` after `timeoutMs`. */
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

/** Waits until `url` answers with `status`, or the npm run ends (then throws with its output). */
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
 * The leads CLI run with this process's environment changed by `env` (an undefined value removes
 * the variable). By default the command `npm run leads` execs (`node scripts/leads.mjs …args`):
 * npm adds nothing but half a CPU second per run. `via: "npm"` runs `npm run --silent leads -- …args`
 * as a shell user types it (stdout clean, as for CSV). Resolves when the streams are closed, so
 * nothing it printed is missed.
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
