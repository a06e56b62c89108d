import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as delay } from "node:timers/promises";

import {
  emptyHistory,
  type FinalLead,
  formatViolations,
  type Forgotten,
  type History,
  judge,
  JUDGED_AFTER_THE_FAULTS,
  leadOf,
  type Rule,
  RULES,
  type Violation,
  type VisitorOutcome,
  type VisitorRequest,
} from "./checker";
import { type FunctionMode, now, type RecordingFunction, startRecordingFunction } from "./function";
import {
  announcedBy,
  type CliRun,
  createSlot,
  killRun,
  newProcessLog,
  runLeads,
  type Slot,
} from "./processes";
import { type Random, seededRandom } from "./random";

/**
 * One randomized history of the lead store (issue 33), in the manner of Jepsen: visitors, dispatchers
 * and the CLI on one store under a nemesis; then a quiet period, `forget`, and the checker.
 */

export interface Engine {
  name: "postgres" | "sqlite";
  /** The store for servers and the CLI (DATABASE_URL, or LEADS_DATABASE_FILE and its folder's files). */
  storeEnv: Record<string, string | undefined>;
  /** The test's own read, beside the CLI's. */
  readLeads(): Promise<(FinalLead & { callStartedAt: number | null })[]>;
  /** Undefined when it cannot tell. */
  holdsLead(id: string): Promise<boolean | undefined>;
  /** Where an address is still held after `forget`: files of the data folder, and table rows. */
  holding(needle: string): Promise<{ files: string[]; rows: string[] }>;
  /** Database faults (PostgreSQL), each lasting a random time in its range; `inject` returns the undo. */
  faults?: Record<string, DatabaseFault>;
}

export const storedLead = (row: Record<string, unknown>): FinalLead & { callStartedAt: number | null } => ({
  id: String(row.id),
  email: String(row.email),
  message: String(row.message),
  state: String(row.state),
  attempts: Number(row.attempts),
  callStartedAt:
    row.call_started_at === null || row.call_started_at === undefined ? null : Number(row.call_started_at),
});

export interface DatabaseFault {
  lastsMs: [number, number];
  inject(random: Random): Promise<() => Promise<void>>;
}

export interface SlotPlan {
  name: string;
  skew?: string;
}

export interface HistoryOptions {
  seed: number;
  engine: Engine;
  slots: SlotPlan[];
  /** How long faults are injected at least; longer (up to 4 times) until every kind has happened. */
  chaosMs: number;
  visitors: number;
  /** faketime's offset for some `leads retry` runs (an operator's laptop whose clock runs ahead). */
  cliSkew?: string;
  /** How long between two instance faults (SIGKILL, SIGTERM), at random in [min, max] ms. */
  instanceFaultEveryMs: [number, number];
  /** The function's timeout in the servers (the lease is this and 5 s). */
  timeoutMs: number;
  /** Longest wait for the dispatchers to catch up after the faults stop. */
  quietMs: number;
  /** The fewest cases each of the checker's rules must judge on this engine (else the run is hollow). */
  minimumCases: Record<Rule, number>;
  /** Where the run's record is kept (history.json, every process's output). */
  dir?: string;
  /** Called at once with what stops every process of the run (for the test's afterAll). */
  onStart?: (stop: () => Promise<void>) => void;
}

export interface ClockProof {
  caller: string;
  skew: string | undefined;
  aheadMs: number;
}

export interface HistoryRun {
  history: History;
  violations: Violation[];
  clocks: ClockProof[];
  dir: string;
  quiet: { settledAfterMs: number | null };
  counts: Record<string, number>;
  cases: Record<Rule, number>;
  lastKindMet?: { kind: string; atSeconds: number };
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Low enough that a run makes some dead leads within its CI length (issues 40 and 51), high enough
 * that most leads outlive a fault.
 */
const MAX_ATTEMPTS = 3;
/** How long a call's answer waits at most for the harness's look at the store (its query, on PostgreSQL). */
const LOOK_WITHIN_MS = 500;
/** Each visitor's own limit (by the address a trusted proxy forwards): a fast clicker is limited sometimes. */
const PER_VISITOR_LIMIT = { posts: 10, windowSeconds: 10 };

/** A new lead every LEAD_EVERY_MS; visitors post the WINDOW newest, so each is posted again and again. */
const LEAD_EVERY_MS = 1_000;
const WINDOW = 5;

/**
 * Lead `index` of a run. One in three has an address beyond ASCII (typed composed, decomposed or in
 * capitals: one lead, decision 026); `lead<index>.s<seed>@example.com` ends every address, so a
 * search for it finds the lead in any of those forms.
 */
export function leadAt(seed: number, index: number) {
  const tail = `lead${index}.s${seed}@example.com`;
  return {
    name: `Visitor ${index}`,
    email: index % 3 === 2 ? `zoë.ñ.${tail}` : tail,
    tail,
    message: `Lead ${index} of history ${seed}: please call me about automating our invoices.`,
  };
}

/** Where a fault of the process nemesis ends: wait for the exit and the restart before the next. */
async function restart(
  slot: Slot,
  pauseMs: number,
  proofs: ClockProof[],
  skew: string | undefined,
  record: (what: string) => void,
) {
  await slot.exited();
  record(`${slot.name} exited`);
  await sleep(pauseMs);
  const aheadMs = await slot.start();
  proofs.push({ caller: slot.caller()!, skew, aheadMs });
  record(`${slot.caller()} started (clock ${aheadMs >= 0 ? "+" : ""}${(aheadMs / 1000).toFixed(1)} s)`);
}

/** What the function nemesis makes the function do, each as often as its weight (after one of each). */
const FUNCTION_FAULTS = {
  slow: 3,
  fail: 2,
  hang: 2,
  garbage: 1,
  down: 1,
  flaky: 3,
  "ran-504": 1,
  "ran-cut": 1,
} as const satisfies Record<Exclude<FunctionMode["kind"], "ok">, number>;

/** What the process nemesis does to an instance, each as often as its weight (after one of each). */
const PROCESS_FAULTS = { SIGKILL: 3, SIGTERM: 2, SIGSTOP: 1 } as const;

export async function runHistory(options: HistoryOptions): Promise<HistoryRun> {
  const { seed, engine, timeoutMs } = options;
  const random = seededRandom(seed);
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), `history-${engine.name}-${seed}-`));
  const startedAt = now();
  const history: History = {
    ...emptyHistory(seed, engine.name, startedAt),
    maxAttempts: MAX_ATTEMPTS,
    leaseMs: timeoutMs + 5_000,
    minimumCases: options.minimumCases,
    faultKinds: [
      ...Object.keys(FUNCTION_FAULTS).map((kind) => `function {"kind":"${kind}"`),
      ...Object.keys(PROCESS_FAULTS),
      ...Object.keys(engine.faults ?? {}).map((name) => `database: ${name}`),
    ],
  };
  const record = (what: string) => history.events.push({ at: now(), what });
  const log = newProcessLog();
  // As each call arrives: which of its caller's announced attempts it is (who made it), and whether
  // its lead's row is in the store (stored before its first call). A look the store does not answer
  // within LOOK_WITHIN_MS (the database paused) is not waited for: the call is then not judged.
  const fake: RecordingFunction = await startRecordingFunction(
    random.stream("function calls"),
    async (call) => {
      if (call.key === undefined) return;
      const bound = new AbortController();
      const [by, look] = await Promise.all([
        announcedBy(log, call.caller, call.key),
        Promise.race([
          engine
            .holdsLead(call.key)
            .then((stored) => (stored === undefined ? undefined : { stored, lookedAt: now() })),
          delay(LOOK_WITHIN_MS, undefined, { signal: bound.signal }).catch(() => undefined),
        ]),
      ]);
      bound.abort();
      if (by) call.by = by;
      if (look) Object.assign(call, look);
    },
  );
  history.calls = fake.calls;
  history.reports = log.reports;
  history.crashes = log.crashes;

  const env = {
    SUPABASE_URL: fake.url,
    METRICS_TOKEN: undefined,
    LEADS_ALERT_WEBHOOK_URL: undefined,
    DATABASE_URL: undefined,
    ...engine.storeEnv,
    CONTACT_FUNCTION_TIMEOUT_MS: String(timeoutMs),
    // Failed leads come back within a second or two: the dispatchers run every 500 ms.
    CONTACT_RETRY_INITIAL_SECONDS: "1",
    CONTACT_RETRY_MAX_SECONDS: "2",
    CONTACT_RETRY_MAX_ATTEMPTS: String(MAX_ATTEMPTS),
    // Each visitor is its own client, by the X-Forwarded-For the one trusted proxy would set; the
    // global ceiling stays out of the way (its own tests are in test/http).
    TRUST_PROXY: "1",
    RATE_LIMIT_PER_CLIENT: String(PER_VISITOR_LIMIT.posts),
    RATE_LIMIT_WINDOW_SECONDS: String(PER_VISITOR_LIMIT.windowSeconds),
    RATE_LIMIT_GLOBAL_PER_MINUTE: "10000000",
  };

  const clocks: ClockProof[] = [];
  const slots: Slot[] = [];
  const skews = new Map<Slot, string | undefined>();
  const runs = new Set<CliRun>();
  let stopping = false;

  let stopped: Promise<void> | undefined;
  const stop = () => (stopped ??= stopAll());
  const stopAll = async () => {
    stopping = true;
    for (const run of runs) killRun(run);
    for (const slot of slots) slot.signal("SIGKILL");
    await Promise.all(slots.map((slot) => slot.exited()));
    await fake.close();
  };

  options.onStart?.(stop);
  try {
    for (const plan of options.slots) {
      const slot = await createSlot({ name: plan.name, env, log, ...(plan.skew ? { skew: plan.skew } : {}) });
      slots.push(slot);
      skews.set(slot, plan.skew);
    }
    // Started one after the other: each migrates or finds the store migrated, as replicas do.
    for (const slot of slots) {
      const aheadMs = await slot.start();
      clocks.push({ caller: slot.caller()!, skew: skews.get(slot), aheadMs });
      record(`${slot.caller()} started (clock ${aheadMs >= 0 ? "+" : ""}${(aheadMs / 1000).toFixed(1)} s)`);
    }
    const chaosStart = now();
    const chaosEnd = chaosStart + options.chaosMs;
    // The faults go on past chaosMs until every kind has happened once (each nemesis gives every
    // kind first) and each rule the running history feeds has its minimum of cases (a slow machine
    // makes fewer requests), within three times as long again: past that, hollowRun says what lacks.
    const chaosCap = chaosEnd + 3 * options.chaosMs;
    let everyKindMet = false;
    /** A function fault waits for a call to meet it: visitors and the rest go on meanwhile. */
    let functionFaultUnmet = false;
    let faultsEndedAt: number | undefined;
    let casesShort = true;
    let casesJudgedAt = -Infinity;
    const enoughCases = (at: number) => {
      if (casesShort && at - casesJudgedAt >= 1_000) {
        // At most once a second: every loop of the run asks.
        casesJudgedAt = at;
        const { cases } = judge(history);
        casesShort = RULES.some(
          (rule) => !JUDGED_AFTER_THE_FAULTS.includes(rule) && cases[rule] < options.minimumCases[rule],
        );
      }
      return !casesShort;
    };
    const chaos = () => {
      if (stopping || faultsEndedAt !== undefined) return false;
      const at = now();
      if (at < chaosEnd) return true;
      everyKindMet ||= history.faultKinds!.every((kind) =>
        history.events.some((event) => event.what.startsWith(kind)),
      );
      if ((!everyKindMet || functionFaultUnmet || !enoughCases(at)) && at < chaosCap) return true;
      faultsEndedAt ??= at;
      return false;
    };

    // --- visitors ----------------------------------------------------------------------------------
    let visitorSeq = 0;
    /** Visitor requests under way, by lead index: a lead is forgotten only when none is (below). */
    const posting = new Map<number, number>();
    const visitor = async (number: number) => {
      const own = random.stream(`visitor ${number}`);
      while (chaos()) {
        const newest = Math.floor((now() - chaosStart) / LEAD_EVERY_MS);
        const index = Math.max(0, newest - own.int(0, WINDOW - 1));
        const lead = leadAt(seed, index);
        // The same lead typed again, sometimes with the address in capitals (the same lead: decision 026).
        const cased = own.chance(0.25) ? lead.email.toUpperCase() : lead.email;
        const email = own.chance(0.5) ? cased.normalize("NFD") : cased;
        const slot = own.pick(slots);
        const id = `v${++visitorSeq}-${seed}`;
        posting.set(index, (posting.get(index) ?? 0) + 1);
        const sentAt = now();
        let outcome: VisitorOutcome;
        let status: number | undefined;
        try {
          const response = await fetch(`${slot.url}/?index`, {
            method: "POST",
            redirect: "manual",
            headers: { "X-Request-Id": id, "X-Forwarded-For": `198.51.100.${number}` },
            body: new URLSearchParams({ name: lead.name, email, message: lead.message }),
            signal: AbortSignal.timeout(60_000),
          });
          await response.arrayBuffer();
          status = response.status;
          outcome =
            status === 303 && response.headers.get("location")?.includes("contact=sent")
              ? "sent"
              : status === 502 || status === 504
                ? "failed"
                : status === 429
                  ? "limited"
                  : "other";
        } catch (error) {
          const code = (error as { cause?: { code?: string } }).cause?.code;
          outcome = code === "ECONNREFUSED" ? "refused" : "no-answer";
        }
        const request: VisitorRequest = {
          id,
          slot: slot.name,
          email,
          message: lead.message,
          sentAt,
          endedAt: now(),
          outcome,
          ...(status !== undefined ? { status } : {}),
        };
        history.visitors.push(request);
        posting.set(index, posting.get(index)! - 1);
        await sleep(own.int(30, 300));
      }
    };

    // --- the function's faults ---------------------------------------------------------------------
    const functionNemesis = async () => {
      const own = random.stream("function faults");
      const nextKind = own.everyThenWeighted(FUNCTION_FAULTS);
      while (chaos()) {
        await sleep(own.int(300, 1_500));
        if (!chaos()) break;
        const kind = nextKind();
        const mode: FunctionMode =
          kind === "slow"
            ? { kind, minMs: 100, maxMs: timeoutMs + 500 }
            : kind === "fail"
              ? { kind, status: own.pick([500, 502, 503]) }
              : kind === "flaky"
                ? { kind, slowMaxMs: timeoutMs + 500 }
                : { kind };
        const callsBefore = fake.calls.length;
        // A fault that no call met tested nothing: it stays until one does (except "down", which no
        // call records), or the faults' time is up; a failing function until a lead was reported dead
        // under it (issue 51). Set before the fault is recorded, so the visitors never stop for every
        // kind met while this one waits.
        functionFaultUnmet = kind !== "down";
        const since = now();
        const met = () =>
          kind === "fail"
            ? log.reports.some((report) => report.state === "dead" && report.at >= since)
            : fake.calls.length > callsBefore;
        await fake.setMode(mode);
        record(`function ${JSON.stringify(mode)}`);
        await sleep(own.int(1_000, 4_000));
        if (functionFaultUnmet) {
          const stop = new AbortController();
          let timeUp = false;
          const untilCap = delay(Math.max(0, chaosCap - now()), undefined, { signal: stop.signal })
            .catch(() => undefined)
            .then(() => (timeUp = true));
          while (!met() && !timeUp) await Promise.race([fake.callsBeyond(fake.calls.length), untilCap]);
          stop.abort();
          functionFaultUnmet = false;
        }
        await fake.setMode({ kind: "ok" });
        record("function answers again");
      }
    };

    // --- the database ------------------------------------------------------------------------------
    /** Settles when the database fault under way (if any) is undone. */
    let databaseBack: Promise<void> = Promise.resolve();
    /**
     * The test's own reads of the store during the faults: no fault begins while one is under way,
     * and none begins while a fault is, so the observer never meets a database it stopped itself.
     */
    let observing: Promise<unknown> = Promise.resolve();
    const whileDatabaseUp = async <T>(read: () => Promise<T>): Promise<T> => {
      for (let back = databaseBack; ; back = databaseBack) {
        await back;
        if (back === databaseBack) break; // no fault began while this one was undone
      }
      const reading = read();
      observing = Promise.allSettled([observing, reading]);
      return reading;
    };
    const databaseNemesis = async () => {
      const faults = Object.entries(engine.faults ?? {});
      if (faults.length === 0) return;
      const own = random.stream("database faults");
      const nextFault = own.everyThenWeighted(Object.fromEntries(faults.map(([name]) => [name, 1])));
      while (chaos()) {
        await sleep(own.int(4_000, 9_000));
        if (!chaos()) break;
        const name = nextFault();
        const fault = engine.faults![name]!;
        for (let reads = observing; ; reads = observing) {
          await reads;
          if (reads === observing) break; // no read began meanwhile; none can until databaseBack is set
        }
        let back!: () => void;
        databaseBack = new Promise((resolve) => (back = resolve));
        try {
          const undo = await fault.inject(own);
          record(`database: ${name}`);
          await sleep(own.int(...fault.lastsMs));
          await undo();
          record(`database: ${name} undone`);
        } finally {
          back();
        }
      }
    };

    // --- the instances -----------------------------------------------------------------------------
    /** The leads being sent, and when their calls began in the store (none: not yet). */
    const sendingNow = async () =>
      (await whileDatabaseUp(() => engine.readLeads()))
        .filter((lead) => lead.state === "sending")
        .map((lead) => ({ id: lead.id, callStartedAt: lead.callStartedAt }));
    const processNemesis = async () => {
      const own = random.stream("process faults");
      const nextAction = own.everyThenWeighted(PROCESS_FAULTS);
      while (chaos()) {
        await sleep(own.int(...options.instanceFaultEveryMs));
        if (!chaos()) break;
        // One that exited by itself (a crash, for the checker) is started again, as a process manager would.
        for (const slot of slots) if (!slot.alive()) await restart(slot, 0, clocks, skews.get(slot), record);
        // Mid-batch when it can: an instance with a call under way.
        const busy = new Set(fake.inFlight().map((call) => call.caller));
        const candidates = slots.filter((slot) => slot.alive() && busy.has(slot.caller() ?? ""));
        const slot = candidates.length > 0 && own.chance(0.8) ? own.pick(candidates) : own.pick(slots);
        if (!slot.alive()) continue;
        const action = nextAction();
        const caller = slot.caller()!;
        if (action === "SIGSTOP") {
          // Paused longer than a lease (the function's timeout and 5 s): no lease can stop it, and
          // its call, if it makes one on waking, carries the lead's one key (decision 044).
          const pauseMs = timeoutMs + 5_000 + own.int(500, 3_000);
          record(`SIGSTOP ${caller} for ${pauseMs} ms${busy.has(caller) ? " (a call under way)" : ""}`);
          const at = now();
          const paused = slot.pause(pauseMs);
          // What it holds: a lead whose call began in the store just before may be held once its
          // lease runs out, its call never made.
          history.kills.push({ at, caller, sending: await sendingNow() });
          await paused;
          record(`SIGCONT ${caller}`);
          continue;
        }
        record(`${action} ${caller}${busy.has(caller) ? " (a call under way)" : ""}`);
        const at = now();
        slot.signal(action);
        await slot.exited();
        // What it held: a lead whose call had just begun may be held as possibly delivered.
        if (action === "SIGKILL") history.kills.push({ at, caller, sending: await sendingNow() });
        await restart(slot, own.int(100, 1_500), clocks, skews.get(slot), record);
      }
    };

    // --- a person runs `npm run leads -- retry` -----------------------------------------------------
    let cliSeq = 0;
    const operator = async () => {
      const own = random.stream("operator");
      while (chaos()) {
        await sleep(own.int(2_000, 6_000));
        if (!chaos()) break;
        // Sometimes knowingly resending the possibly delivered (a second call accepted: the checker allows it).
        const anyway = own.chance(0.3);
        const skew = options.cliSkew && own.chance(0.5) ? options.cliSkew : undefined;
        const caller = `${anyway ? "cli-pd" : "cli"}.${++cliSeq}`;
        const run = runLeads(["retry", ...(anyway ? ["--include-possibly-delivered"] : [])], {
          caller,
          env,
          log,
          ...(skew ? { skew } : {}),
        });
        runs.add(run);
        record(
          `${caller}: ${skew ? `faketime -f ${skew} ` : ""}npm run leads -- retry${anyway ? " --include-possibly-delivered" : ""}`,
        );
        const result = await run.exited;
        runs.delete(run);
        record(`${caller} exited ${result.code}`);
      }
    };

    // --- a person asks to be forgotten while their lead may still be being sent (issue 40) -------
    const midRunForgets: {
      typed: string;
      lead: ReturnType<typeof leadAt>;
      from: number;
      to: number;
      code: number | null;
    }[] = [];
    const privacy = async () => {
      const own = random.stream("forget");
      while (chaos()) {
        // Often enough that a 30 s run forgets two or more (the minimum of its rule: issue 51).
        await sleep(own.int(4_000, 8_000));
        if (!chaos()) break;
        // Just out of the visitors' window (nobody posts it any more), perhaps still retried or in
        // flight. The first leads leave it some seconds in: the first forget waits for its lead to.
        const back = own.int(1, 4);
        const leftAt = chaosStart + (WINDOW + back) * LEAD_EVERY_MS;
        if (now() < leftAt) await sleep(leftAt - now());
        const index = Math.floor((now() - chaosStart) / LEAD_EVERY_MS) - WINDOW - back;
        const lead = leadAt(seed, index);
        // No visitor posts it any more; one whose post is still under way (an instance frozen, the
        // database paused) could store it again after the forget, as a new lead: wait for it.
        while (chaos() && (posting.get(index) ?? 0) > 0) await sleep(50);
        if (!chaos()) break;
        // Typed as a person might: decomposed, in capitals.
        const typed = lead.email.normalize("NFD").toUpperCase();
        const from = now();
        const run = runLeads(["forget", typed], { caller: "cli.forget", env, log });
        runs.add(run);
        const result = await run.exited;
        runs.delete(run);
        record(
          `npm run leads -- forget ${typed} (faults under way): exit ${result.code}: ${result.stdout.trim()}`,
        );
        midRunForgets.push({ typed, lead, from, to: now(), code: result.code });
      }
    };

    await Promise.all([
      ...Array.from({ length: options.visitors }, (_, index) => visitor(index + 1)),
      functionNemesis(),
      databaseNemesis(),
      processNemesis(),
      operator(),
      privacy(),
    ]);
    await databaseBack;
    record("faults stop: the function answers, every instance is up");
    await fake.setMode({ kind: "ok" });
    for (const slot of slots) if (!slot.alive()) await restart(slot, 0, clocks, skews.get(slot), record);

    // --- quiet: the dispatchers catch up -----------------------------------------------------------
    const quietStart = now();
    let settledAfterMs: number | null = null;
    while (now() - quietStart < options.quietMs) {
      const leads = await engine.readLeads();
      if (
        fake.inFlight().length === 0 &&
        !leads.some((lead) => lead.state === "pending" || lead.state === "sending")
      ) {
        settledAfterMs = now() - quietStart;
        break;
      }
      await sleep(250);
    }
    record(
      settledAfterMs === null
        ? `still not settled after ${options.quietMs} ms`
        : "settled: nothing pending or being sent",
    );

    const listed = await runLeads(["list"], { caller: "cli.list", env, log }).exited;
    history.final = {
      leads: (await engine.readLeads()).map(({ id, email, message, state, attempts }) => ({
        id,
        email,
        message,
        state,
        attempts,
      })),
      listOutput: listed.stdout + listed.stderr,
    };

    // --- forget ------------------------------------------------------------------------------------
    const finals = history.final.leads;
    const chosen = [
      finals.find((lead) => lead.state === "delivered"),
      finals.find((lead) => lead.state === "possibly_delivered") ??
        [...finals].reverse().find((lead) => lead.state === "delivered"),
    ].filter((lead): lead is FinalLead => lead !== undefined);
    const forgotten: Forgotten[] = [];
    for (const lead of new Set(chosen)) {
      // Typed as a person might: in capitals (forget matches the address folded).
      const typed = lead.email.toUpperCase();
      const result = await runLeads(["forget", typed], { caller: "cli.forget", env, log }).exited;
      record(`npm run leads -- forget ${typed}: exit ${result.code}: ${result.stdout.trim()}`);
      // The ASCII end of the address, whichever form was stored (composed or not, in capitals or not).
      const lower = lead.email.toLowerCase();
      const address = await engine.holding(lower.slice(lower.indexOf("lead")));
      const message = await engine.holding(lead.message);
      forgotten.push({
        address: typed,
        files: [...address.files, ...message.files.map((file) => `${file} (the message)`)],
        rows: [...address.rows, ...message.rows],
      });
    }
    // The forgets run while the faults were under way. One that could not run (exit 2: the store was
    // down) or left a copy in the write-ahead log (exit 1) is run again, as it tells the person to.
    for (const { typed, lead, from, to, code } of midRunForgets) {
      if (code !== 0) {
        const again = await runLeads(["forget", typed], { caller: "cli.forget", env, log }).exited;
        record(`npm run leads -- forget ${typed} (again): exit ${again.code}: ${again.stdout.trim()}`);
      }
      const address = await engine.holding(lead.tail);
      const message = await engine.holding(lead.message);
      forgotten.push({
        address: typed,
        began: { at: from, lead: leadOf(lead.email, lead.message) },
        // Gone from the store since then, unless that forget could not run at all.
        ...(code === 0 || code === 1 ? { during: { from, to, lead: leadOf(lead.email, lead.message) } } : {}),
        files: [...address.files, ...message.files.map((file) => `${file} (the message)`)],
        rows: [...address.rows, ...message.rows],
      });
    }
    history.forgotten = forgotten;

    for (const request of history.visitors) {
      const seen = log.results.get(request.id);
      if (seen)
        Object.assign(
          request,
          seen.keptIn ? { result: seen.result, keptIn: seen.keptIn } : { result: seen.result },
        );
    }
    const { violations, cases } = judge(history);
    writeFileSync(join(dir, "history.json"), JSON.stringify(history, null, 1));
    writeFileSync(join(dir, "violations.txt"), formatViolations(history, violations, `HISTORY_SEED=${seed}`));
    writeFileSync(
      join(dir, "output.log"),
      log.lines
        .map((line) => `${((line.at - startedAt) / 1000).toFixed(3)} ${line.who} ${line.text}`)
        .join("\n"),
    );
    const count = (what: (call: History["calls"][number]) => boolean) => history.calls.filter(what).length;
    return {
      history,
      violations,
      clocks,
      dir,
      quiet: { settledAfterMs },
      cases,
      counts: {
        leads: new Set(history.visitors.map((request) => request.message)).size,
        visitorRequests: history.visitors.length,
        toldSent: history.visitors.filter((request) => request.outcome === "sent").length,
        duplicates: history.visitors.filter((request) => request.result === "duplicate").length,
        calls: history.calls.length,
        confirmed: count((call) => call.plan === "ok" && call.answered),
        ranThenFailed: count((call) => call.plan === "ran-504" || call.plan === "ran-cut"),
        limited: history.visitors.filter((request) => request.outcome === "limited").length,
        madeDead: history.reports.filter((report) => report.state === "dead").length,
        dead: history.final.leads.filter((lead) => lead.state === "dead").length,
        possiblyDelivered: history.final.leads.filter((lead) => lead.state === "possibly_delivered").length,
        kills: history.events.filter((event) => event.what.startsWith("SIGKILL")).length,
        pauses: history.events.filter((event) => event.what.startsWith("SIGSTOP")).length,
        forgetsUnderFaults: midRunForgets.length,
        terms: history.events.filter((event) => event.what.startsWith("SIGTERM")).length,
        retries: history.events.filter((event) =>
          /^cli(-pd)?\.\d+: .*npm run leads -- retry/.test(event.what),
        ).length,
        databaseFaults: history.events.filter(
          (event) => event.what.startsWith("database:") && !event.what.endsWith("undone"),
        ).length,
        faultSeconds: Math.round(((faultsEndedAt ?? now()) - chaosStart) / 1000),
      },
      // The kind of fault met last, and when (seconds after the faults began).
      lastKindMet: history
        .faultKinds!.map((kind) => {
          const first = history.events.find((event) => event.what.startsWith(kind));
          return { kind, atSeconds: first ? Math.round((first.at - chaosStart) / 1000) : Infinity };
        })
        .sort((a, b) => b.atSeconds - a.atSeconds)[0],
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
