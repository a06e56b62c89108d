import { type ChildProcess, spawn } from "node:child_process";
import { createInterface } from "node:readline";

import { serverBuildDir } from "../build-output";
import { childrenOf, killTree } from "../npm";
import { freePort, root } from "../server-process.mjs";
import type { AttemptBy, AttemptReport, ReportState } from "./checker";
import { now } from "./function";

/**
 * The history test's processes, each held by its PID: server instances that keep their address
 * across restarts, and `npm run leads` runs. Each gets its own SUPABASE_ANON_KEY, which the fake
 * function records as the caller of every call.
 */

const startScript = `${root}scripts/start.mjs`;

/** One line a process printed, when the test read it. */
export interface OutputLine {
  at: number;
  who: string;
  text: string;
}

/** A server that exited although nobody signalled it. */
export interface Crash {
  at: number;
  caller: string;
  how: string;
  output: string[];
}

/** One attempt a process announced (`lead_call`), and whether its call has arrived. */
interface Announced {
  by: AttemptBy;
  called: boolean;
}

export interface ProcessLog {
  lines: OutputLine[];
  crashes: Crash[];
  reports: AttemptReport[];
  /** contact_submission lines by request id: what the server made of each visitor request. */
  results: Map<string, { result: string; status: number; keptIn?: string }>;
  /** Each process's announced attempts of each lead (`<caller> <lead id>`), in the order it printed them. */
  announced: Map<string, Announced[]>;
  /** Called at every `lead_call` line (announcedBy waits on them). */
  onAnnounce: Set<() => void>;
}

export function newProcessLog(): ProcessLog {
  return {
    lines: [],
    crashes: [],
    reports: [],
    results: new Map(),
    announced: new Map(),
    onAnnounce: new Set(),
  };
}

const REPORT_STATES: Record<string, ReportState> = {
  delivered: "delivered",
  pending: "pending",
  dead: "dead",
  possibly_delivered: "possibly_delivered",
  unknown: "unknown",
};

const byOf = (value: unknown): AttemptBy =>
  value === "visitor" ? "visitor" : value === "cli" ? "cli" : "dispatcher";

/** How long a call's announcement may take to be read once the pipes written before it are: a bound, not a pause. */
const ANNOUNCED_WITHIN_MS = 1_000;

/**
 * The last attempt the caller announced (`lead_call`) whose call had not arrived yet: its attempts
 * of a lead are one after the other, and it may have given up on this call already (a call cut at
 * what was left of its lease arrives after its caller's report). The line was written before the
 * request was sent, so once the event loop has read what the pipes held (two turns), it is here.
 */
export async function announcedBy(
  log: ProcessLog,
  caller: string,
  key: string,
): Promise<AttemptBy | undefined> {
  const open = () =>
    log.announced
      .get(`${caller} ${key}`)
      ?.filter((one) => !one.called)
      .at(-1);
  for (let turn = 0; turn < 2; turn++) await new Promise((resolve) => setImmediate(resolve));
  const found =
    open() ??
    (await new Promise<Announced | undefined>((resolve) => {
      const look = () => {
        const one = open();
        if (!one) return;
        clearTimeout(timer);
        log.onAnnounce.delete(look);
        resolve(one);
      };
      const timer = setTimeout(() => {
        log.onAnnounce.delete(look);
        resolve(undefined);
      }, ANNOUNCED_WITHIN_MS);
      log.onAnnounce.add(look);
    }));
  if (found) found.called = true;
  return found?.by;
}

function readOutput(child: ChildProcess, who: string, log: ProcessLog) {
  for (const stream of [child.stdout, child.stderr]) {
    if (!stream) continue;
    createInterface({ input: stream }).on("line", (text) => {
      const at = now();
      log.lines.push({ at, who, text });
      if (!text.startsWith("{")) return;
      let event: Record<string, unknown>;
      try {
        event = JSON.parse(text) as Record<string, unknown>;
      } catch {
        return;
      }
      // The same lines from a server and from `leads retry` (attemptDelivery prints them for both).
      if (event.event === "lead_call" && typeof event.leadId === "string") {
        const attempts = log.announced.get(`${who} ${event.leadId}`) ?? [];
        attempts.push({ by: byOf(event.by), called: false });
        log.announced.set(`${who} ${event.leadId}`, attempts);
        for (const look of [...log.onAnnounce]) look();
      }
      if (event.event === "lead_attempt" && typeof event.leadId === "string")
        log.reports.push({
          at,
          caller: who,
          key: event.leadId,
          by: byOf(event.by),
          state: REPORT_STATES[String(event.state)] ?? "unknown",
          ...(typeof event.attempt === "number" ? { attempt: event.attempt } : {}),
          ...(typeof event.reason === "string" ? { reason: event.reason } : {}),
        });
      if (event.event === "contact_submission" && typeof event.requestId === "string")
        log.results.set(event.requestId, {
          result: String(event.result),
          status: Number(event.status),
          ...(typeof event.keptIn === "string" ? { keptIn: event.keptIn } : {}),
        });
    });
  }
}

export interface Slot {
  name: string;
  url: string;
  /** The caller name of the running incarnation (`<name>.<n>`), undefined while it is down. */
  caller(): string | undefined;
  alive(): boolean;
  /** Starts a new incarnation and waits until /healthz answers 200; returns how far its clock is ahead (ms, from its Date header). */
  start(): Promise<number>;
  /** Signals the server process itself (under faketime: its child, the node process) by PID. */
  signal(signal: NodeJS.Signals): void;
  exited(): Promise<void>;
  /** Stops the server where it stands (SIGSTOP) for `ms`, then lets it go on (SIGCONT): a frozen VM, a long GC. */
  pause(ms: number): Promise<void>;
}

export interface SlotOptions {
  name: string;
  env: Record<string, string | undefined>;
  /** libfaketime's offset, e.g. "+20s": the instance runs under `faketime -f`. */
  skew?: string;
  log: ProcessLog;
}

export async function createSlot({ name, env, skew, log }: SlotOptions): Promise<Slot> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let incarnation = 0;
  let child: ChildProcess | undefined;
  let serverPid: number | undefined;
  let exit: Promise<void> = Promise.resolve();
  let running = false;
  /** Whether the running incarnation was told to stop (its exit is then no crash). */
  let signalled = false;

  const start = async (): Promise<number> => {
    if (running) throw new Error(`${name} is already running`);
    incarnation += 1;
    const caller = `${name}.${incarnation}`;
    const childEnv: Record<string, string | undefined> = {
      ...process.env,
      NODE_ENV: "production",
      ...env,
      SUPABASE_ANON_KEY: caller,
      REMIX_BUILD_DIR: serverBuildDir,
      PORT: String(port),
      HOST: "127.0.0.1",
      // libfaketime fakes CLOCK_MONOTONIC too unless told not to: Node's timers and performance.now()
      // run on it. Only the wall clock (Date, the HTTP Date header) is to run ahead.
      ...(skew ? { FAKETIME_DONT_FAKE_MONOTONIC: "1" } : {}),
    };
    for (const key of Object.keys(childEnv)) if (childEnv[key] === undefined) delete childEnv[key];
    const [command, args] = skew
      ? ["faketime", ["-f", skew, process.execPath, startScript]]
      : [process.execPath, [startScript]];
    const spawned = spawn(command, args, {
      cwd: root,
      env: childEnv as NodeJS.ProcessEnv,
      stdio: ["ignore", "pipe", "pipe"],
    });
    child = spawned;
    running = true;
    signalled = false;
    exit = new Promise<void>((resolve) =>
      spawned.once("exit", (code, signal) => {
        running = false;
        serverPid = undefined;
        if (!signalled)
          log.crashes.push({
            at: now(),
            caller,
            how: signal ?? `code ${code}`,
            // Its last words, without the request log and the stack frames.
            output: log.lines
              .filter((line) => line.who === caller && !line.text.includes('"event":"request"'))
              .filter((line) => !/^\s+at /.test(line.text))
              .slice(-30)
              .map((line) => line.text),
          });
        log.lines.push({ at: now(), who: caller, text: `(exited: ${signal ?? `code ${code}`})` });
        resolve();
      }),
    );
    readOutput(spawned, caller, log);
    // `faketime` forks the program it runs: the server is its child, and that is the PID to signal.
    serverPid = skew ? undefined : spawned.pid;
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (!running) throw new Error(`${caller} exited while starting:\n${tail(log, caller)}`);
      if (serverPid === undefined && spawned.pid !== undefined) serverPid = childrenOf(spawned.pid)[0];
      try {
        const response = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(5_000) });
        await response.arrayBuffer();
        const date = response.headers.get("date");
        if (response.status === 200 && serverPid !== undefined && date) return Date.parse(date) - Date.now();
      } catch {
        // Not listening yet.
      }
      if (Date.now() > deadline) {
        spawned.kill("SIGKILL");
        if (serverPid) process.kill(serverPid, "SIGKILL");
        throw new Error(`${caller} did not answer /healthz within 60 s:\n${tail(log, caller)}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };

  return {
    name,
    url,
    caller: () => (running ? `${name}.${incarnation}` : undefined),
    alive: () => running,
    start,
    signal(signal) {
      const pid = serverPid ?? child?.pid;
      if (!running || pid === undefined) return;
      signalled = true;
      try {
        process.kill(pid, signal);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "ESRCH") throw error;
      }
    },
    exited: () => exit,
    async pause(ms) {
      const pid = serverPid ?? child?.pid;
      if (!running || pid === undefined) return;
      process.kill(pid, "SIGSTOP");
      await new Promise((resolve) => setTimeout(resolve, ms));
      // Killed meanwhile (the run's end): nothing left to wake.
      if (running) process.kill(pid, "SIGCONT");
    },
  };
}

export function tail(log: ProcessLog, who: string, count = 40): string {
  return log.lines
    .filter((line) => line.who === who)
    .slice(-count)
    .map((line) => line.text)
    .join("\n");
}

export interface CliRun {
  caller: string;
  pid: number;
  exited: Promise<{ code: number | null; stdout: string; stderr: string }>;
}

/** `npm run --silent leads -- …args` as ops run it, with the servers' store and function. */
export function runLeads(
  args: string[],
  {
    caller,
    env,
    log,
    skew,
  }: { caller: string; env: Record<string, string | undefined>; log: ProcessLog; skew?: string },
): CliRun {
  const childEnv: Record<string, string | undefined> = {
    ...process.env,
    ...env,
    SUPABASE_ANON_KEY: caller,
    REMIX_BUILD_DIR: serverBuildDir,
    // Wide enough that `list` prints one line per lead (the e-mail is never cut).
    COLUMNS: "250",
    ...(skew ? { FAKETIME_DONT_FAKE_MONOTONIC: "1" } : {}),
  };
  for (const key of Object.keys(childEnv)) if (childEnv[key] === undefined) delete childEnv[key];
  const npmArgs = ["run", "--silent", "leads", "--", ...args];
  // A laptop whose clock runs ahead: npm, and the CLI it runs, under faketime.
  const child = spawn(skew ? "faketime" : "npm", skew ? ["-f", skew, "npm", ...npmArgs] : npmArgs, {
    cwd: root,
    env: childEnv as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  readOutput(child, caller, log);
  log.lines.push({
    at: now(),
    who: caller,
    text: `(${skew ? `faketime -f ${skew} ` : ""}npm run leads -- ${args.join(" ")})`,
  });
  const exited = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.once("close", (code) => resolve({ code, stdout, stderr })),
  );
  return { caller, pid: child.pid!, exited };
}

export function killRun(run: CliRun): void {
  killTree(run.pid);
}
