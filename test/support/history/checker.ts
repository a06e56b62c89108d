/**
 * The checker of the randomized history test (issue 33): a pure function over what was recorded, in
 * the manner of Jepsen's checkers. It knows nothing of the code under test; it reads only what an
 * outside observer saw, and what the processes printed.
 */

/** Milliseconds since the epoch, on the test process's clock. */
export type Time = number;

/**
 * What the function did with a call, decided when it arrived: `ok` sends the e-mail and answers 2xx
 * with its JSON; `garbage` sends it and answers 2xx with a body that is not JSON; `fail` does not
 * send it and answers an error status; `hang` never answers (what it did is unknown); `reset` cuts
 * the connection on arrival (the function never ran: it is down); `ran-504` sends it and then a
 * gateway answers 504; `ran-cut` sends it and then the connection is cut, unanswered.
 */
export type Plan = "ok" | "garbage" | "fail" | "hang" | "reset" | "ran-504" | "ran-cut";

export interface Call {
  seq: number;
  /** The caller's SUPABASE_ANON_KEY: `<slot>.<incarnation>` for an instance, `cli.<n>` / `cli-pd.<n>` for `leads retry`. */
  caller: string;
  key: string | undefined;
  email: string;
  message: string;
  arrivedAt: Time;
  /** When the answer was written, or when the connection closed unanswered (the caller gave up). */
  endedAt: Time;
  /**
   * When the function itself was done with the call, which may be after its caller gave up (a slow
   * call sends its e-mail anyway; a hung one stays stuck). Unset: when the call ended.
   */
  finishedAt?: Time;
  plan: Plan;
  status: number;
  /** The answer was written while the caller was still connected. */
  answered: boolean;
  /** Who made it, per its caller's `lead_call` line printed just before the call; unset: none did. */
  by?: AttemptBy;
  /**
   * Whether the lead's row was in the store when the call arrived, before the function answered;
   * unset when the store did not answer the look in time (the database paused).
   */
  stored?: boolean;
  /** When the harness's look at the store was answered. */
  lookedAt?: Time;
}

export type AttemptBy = "visitor" | "dispatcher" | "cli";

export type VisitorOutcome = "sent" | "failed" | "limited" | "refused" | "no-answer" | "other";

export interface VisitorRequest {
  /** Its X-Request-Id. */
  id: string;
  /** The instance it was sent to (its slot: the same address across restarts). */
  slot: string;
  email: string;
  message: string;
  sentAt: Time;
  endedAt: Time;
  /** What the visitor was told: "sent" is the form's success notice (a duplicate is told "sent" too). */
  outcome: VisitorOutcome;
  status?: number;
  /** The server's own word for it (its contact_submission log line): sent, duplicate, send-failed… */
  result?: string;
  /** Where a failed attempt's lead is kept, as the server said: "store" (admitted) or "stderr" (not). */
  keptIn?: string;
}

export type ReportState = "delivered" | "pending" | "dead" | "possibly_delivered" | "unknown";

/** A process's own account of one attempt (it may have reached the function or not). */
export interface AttemptReport {
  at: Time;
  caller: string;
  key: string;
  by: AttemptBy;
  state: ReportState;
  /** The lead's attempts, this one included (the line's `attempt`). */
  attempt?: number;
  /** Why it was not delivered, as its caller saw it (`timeout`: it never learned the outcome). */
  reason?: string;
}

export interface HistoryEvent {
  at: Time;
  what: string;
}

/** The leads being sent (state `sending`) right after a process was SIGKILLed or frozen (SIGSTOP). */
export interface KillSnapshot {
  at: Time;
  caller: string;
  sending: { id: string; callStartedAt: number | null }[];
}

/** A server that exited although nobody stopped it. */
export interface CrashRecord {
  at: Time;
  caller: string;
  how: string;
  output: string[];
}

export interface FinalLead {
  id: string;
  email: string;
  message: string;
  state: string;
  attempts: number;
}

export interface Forgotten {
  address: string;
  /** A run while the faults were under way, whatever its exit: when it began, and the lead it was for. */
  began?: { at: Time; lead: string };
  /** When `leads forget` ran, for one run while the faults were under way (issue 40); else after the run. */
  during?: { from: Time; to: Time; lead: string };
  /** Files under the data folder that still hold the address (SQLite). */
  files: string[];
  /** Table rows that still hold it ("table: row" as text). */
  rows: string[];
}

export interface History {
  seed: number;
  engine: string;
  startedAt: Time;
  calls: Call[];
  visitors: VisitorRequest[];
  reports: AttemptReport[];
  events: HistoryEvent[];
  kills: KillSnapshot[];
  crashes: CrashRecord[];
  /** A lease (the function's timeout and 5 s): the longest an attempt begun before a forget may still call. */
  leaseMs?: number;
  /** The servers' CONTACT_RETRY_MAX_ATTEMPTS: a lead that failed for sure this many times is dead. */
  maxAttempts?: number;
  /**
   * Every kind of fault the nemesis injects, as its event begins (`function {"kind":"hang"`,
   * `SIGSTOP`, `database: postgres paused (SIGSTOP)`): each must have happened (issue 40).
   */
  faultKinds?: string[];
  /** The fewest cases each rule must have judged (judge()), else the run is hollow; 1 when unset. */
  minimumCases?: Partial<Record<Rule, number>>;
  /** The store after the quiet period. */
  final?: { leads: FinalLead[]; listOutput: string };
  forgotten?: Forgotten[];
}

export const emptyHistory = (seed: number, engine: string, startedAt: Time): History => ({
  seed,
  engine,
  startedAt,
  calls: [],
  visitors: [],
  reports: [],
  events: [],
  kills: [],
  crashes: [],
});

export const RULES = [
  "no crash",
  "every call announced",
  "stored before its first call",
  "one call in flight",
  "one confirmed call",
  "no machine resend",
  "one key",
  "told sent means confirmed",
  "delivered or held",
  "held only when unsure",
  "dead after the limit",
  "forget leaves nothing",
  "forgotten is never called",
] as const;

export type Rule = (typeof RULES)[number];

/** The rules judged from the store's final state and the forgets after the faults: the running history gives them no case. */
export const JUDGED_AFTER_THE_FAULTS: readonly Rule[] = [
  "delivered or held",
  "forget leaves nothing",
  "forgotten is never called",
];

export interface Violation {
  rule: Rule;
  /** The lead (e-mail and message) it is about, if one. */
  lead?: string;
  message: string;
  excerpt: string[];
}

/** Reports are read from pipes: this much out of order against calls is not taken as evidence. */
const SLACK_MS = 100;
/**
 * A call its process recorded as begun this shortly before it was killed or frozen may never reach
 * the function (stopped between the store's `beginCall` and its `lead_call` line, or with the
 * request still leaving the process; a frozen one's call is cut when it wakes past its lease): held
 * as possibly delivered, rightly.
 */
const CALL_LEAVING_MS = 2_000;

/** What makes two submissions one lead (decision 026): the address composed and case-folded, and the message. */
export function leadOf(email: string, message: string): string {
  return `${email.trim().normalize("NFC").toLowerCase()} | ${message}`;
}

const leadOfCall = (call: Call) => leadOf(call.email, call.message);

/** Who made a call: its caller's `lead_call` line says, and a `retry` run's name says whether with the flag. */
export type CallPath =
  "visitor" | "dispatcher" | "retry" | "retry --include-possibly-delivered" | "unannounced";

export function pathOf(call: Call): CallPath {
  if (call.by === undefined) return "unannounced";
  if (call.by !== "cli") return call.by;
  return call.caller.startsWith("cli-pd.") ? "retry --include-possibly-delivered" : "retry";
}

/** A person asked for it: a visitor's resend, or `retry --include-possibly-delivered`. */
const byPerson = (path: CallPath) => path === "visitor" || path === "retry --include-possibly-delivered";

/** The caller could have learned a definite outcome: a readable answer, or a cut before the function ran. */
const informed = (call: Call) =>
  (call.answered && (call.plan === "ok" || call.plan === "fail")) || call.plan === "reset";
/** The caller learned that the function did not send it. */
const sureFailure = (call: Call) => informed(call) && (call.plan === "fail" || call.plan === "reset");
/** Until when a call is in flight: its caller waits for it, and the function works on it. */
const inFlightUntil = (call: Call) => Math.max(call.endedAt, call.finishedAt ?? call.endedAt);
/** The function sent the e-mail, whatever its caller heard. */
const ran = (call: Call) =>
  call.plan === "ok" || call.plan === "garbage" || call.plan === "ran-504" || call.plan === "ran-cut";

/** The first report its caller printed for this key after the call ended: the call's own. */
function ownReport(call: Call, history: History): AttemptReport | undefined {
  if (call.key === undefined) return undefined;
  return history.reports
    .filter(
      (report) =>
        report.caller === call.caller && report.key === call.key && report.at >= call.endedAt - SLACK_MS,
    )
    .sort((a, b) => a.at - b.at)[0];
}

/** The caller learned and recorded the call's outcome (delivered, or failed for sure). */
function settled(call: Call, history: History): boolean {
  if (!informed(call)) return false;
  const report = ownReport(call, history);
  return report !== undefined && ["delivered", "pending", "dead"].includes(report.state);
}

function deliveredBefore(call: Call, time: Time, history: History): boolean {
  const report = ownReport(call, history);
  return call.plan === "ok" && call.answered && report?.state === "delivered" && report.at < time - SLACK_MS;
}

// --- the excerpt of a violation --------------------------------------------------------------------

const at = (history: History, time: Time) => `+${((time - history.startedAt) / 1000).toFixed(3)}s`;
const short = (key: string | undefined) =>
  key === undefined ? "(none)" : key.length > 13 ? `${key.slice(0, 8)}…` : key;

export function describeCall(call: Call, history: History): string {
  const answer =
    call.plan === "hang"
      ? "never answered"
      : call.plan === "reset"
        ? "cut on arrival (function down)"
        : call.plan === "ran-cut"
          ? "ran, then the connection was cut"
          : `${call.plan === "ok" ? "2xx" : call.plan === "garbage" ? "2xx garbage" : call.plan === "ran-504" ? "ran, then 504" : call.status}${call.answered ? "" : ", caller gone before the answer"}`;
  return (
    `${at(history, call.arrivedAt)}..${at(history, call.endedAt)} call #${call.seq} from ${call.caller} (${pathOf(call)}) ` +
    `key ${short(call.key)} ${call.email}: ${answer}${call.stored === false ? " (its row not in the store yet)" : ""}`
  );
}

const describeVisitor = (request: VisitorRequest, history: History) =>
  `${at(history, request.sentAt)}..${at(history, request.endedAt)} visitor ${request.id} at ${request.slot} ${request.email}: ` +
  `told ${request.outcome}${request.status ? ` (${request.status}${request.result ? ` ${request.result}` : ""})` : ""}`;

const describeReport = (report: AttemptReport, history: History) =>
  `${at(history, report.at)} ${report.caller} reports ${report.by} attempt${report.attempt ? ` ${report.attempt}` : ""} key ${short(report.key)}: ${report.state}`;

/** Everything the history holds about one lead, and what the nemesis did meanwhile, in time order. */
export function excerptOf(history: History, lead: string, extra: string[] = []): string[] {
  const calls = history.calls.filter((call) => leadOfCall(call) === lead);
  const keys = new Set(calls.flatMap((call) => (call.key ? [call.key] : [])));
  const final = history.final?.leads.find((row) => leadOf(row.email, row.message) === lead);
  if (final) keys.add(final.id);
  const visitors = history.visitors.filter((request) => leadOf(request.email, request.message) === lead);
  const reports = history.reports.filter((report) => keys.has(report.key));
  const lines: { at: Time; text: string }[] = [
    ...calls.map((call) => ({ at: call.arrivedAt, text: describeCall(call, history) })),
    ...visitors
      .filter((request) => request.outcome !== "refused")
      .map((request) => ({ at: request.sentAt, text: describeVisitor(request, history) })),
    ...reports.map((report) => ({ at: report.at, text: describeReport(report, history) })),
  ];
  const times = lines.map((line) => line.at);
  if (times.length > 0) {
    const from = Math.min(...times) - 1_000;
    const to = Math.max(...times, ...calls.map((call) => call.endedAt)) + 1_000;
    for (const event of history.events)
      if (event.at >= from && event.at <= to)
        lines.push({ at: event.at, text: `${at(history, event.at)} nemesis: ${event.what}` });
    for (const crash of history.crashes)
      if (crash.at >= from && crash.at <= to)
        lines.push({
          at: crash.at,
          text: `${at(history, crash.at)} ${crash.caller} exited by itself (${crash.how})`,
        });
    for (const kill of history.kills)
      if (kill.at >= from && kill.at <= to && kill.sending.some((row) => keys.has(row.id)))
        lines.push({
          at: kill.at,
          text: `${at(history, kill.at)} after ${kill.caller} was killed or frozen, being sent: ${kill.sending
            .filter((row) => keys.has(row.id))
            .map(
              (row) =>
                `${short(row.id)} (call started ${row.callStartedAt === null ? "no" : at(history, row.callStartedAt)})`,
            )
            .join(", ")}`,
        });
  }
  lines.sort((a, b) => a.at - b.at);
  const text = lines.map((line) => line.text);
  if (final) text.push(`at the end: row ${short(final.id)} ${final.state}, ${final.attempts} attempts`);
  // A long history keeps its beginning and its end.
  const kept =
    text.length > 60 ? [...text.slice(0, 20), `… ${text.length - 50} lines …`, ...text.slice(-30)] : text;
  return [...kept, ...extra];
}

// --- a run that tested something -----------------------------------------------------------------

/**
 * Why a history proves nothing, if it does not: a run that made no call breaks no rule, and a rule
 * may never have had a chance to fail (issues 40 and 51). Empty: the run tested what the rules are
 * about.
 */
export function hollowRun(history: History): string[] {
  const reasons: string[] = [];
  const { cases } = judge(history);
  for (const rule of RULES) {
    const minimum = Math.max(1, history.minimumCases?.[rule] ?? 1);
    if (cases[rule] < minimum)
      reasons.push(`the rule "${rule}" judged ${cases[rule]} case(s), fewer than its minimum ${minimum}`);
  }
  if (!history.events.some((event) => /^SIG(KILL|TERM)/.test(event.what)))
    reasons.push("no instance was killed or stopped");
  if (history.engine === "postgres" && !history.events.some((event) => event.what.startsWith("database:")))
    reasons.push("no database fault was injected");
  // A function fault that no call met was not injected: each of the function's answers happened.
  if (history.faultKinds?.some((kind) => kind.startsWith("function ")))
    for (const plan of ["ok", "fail", "hang", "garbage", "ran-504", "ran-cut"] as const)
      if (!history.calls.some((call) => call.plan === plan)) reasons.push(`no call met the plan ${plan}`);
  const kinds = history.faultKinds ?? [];
  if (kinds.length === 0) reasons.push("no fault kinds were declared");
  for (const kind of kinds)
    if (!history.events.some((event) => event.what.startsWith(kind)))
      reasons.push(`no fault of kind ${kind} was injected`);
  return reasons;
}

// --- the rules -------------------------------------------------------------------------------------

/**
 * The leads forgotten while the faults ran that no visitor posted again since, each with when its
 * forget had ended (until then an attempt may still take the lead: the CLI has not erased it yet).
 */
function forgottenForGood(history: History): Map<string, Time> {
  const gone = new Map<string, Time>();
  for (const forgotten of history.forgotten ?? []) {
    if (!forgotten.during) continue;
    const { from, to, lead } = forgotten.during;
    const postedSince = history.visitors.some(
      (request) => leadOf(request.email, request.message) === lead && request.endedAt >= from,
    );
    if (!postedSince) gone.set(lead, to);
  }
  return gone;
}

export function check(history: History): Violation[] {
  return judge(history).violations;
}

/**
 * Every rule over the history: what broke it, and how many cases each rule judged (hollowRun fails a
 * run in which a rule had fewer than its minimum). A case is a moment the rule could have failed:
 * a call (announced, stored), two attempts of one lead under way at once, a person's resend of a lead
 * the function may have sent, a lead held, a dead lead, a forget.
 */
export function judge(history: History): { violations: Violation[]; cases: Record<Rule, number> } {
  const violations: Violation[] = [];
  const cases = Object.fromEntries(RULES.map((rule) => [rule, 0])) as Record<Rule, number>;
  const forgotten = forgottenForGood(history);
  // A case: a lead forgotten while the faults ran, which nothing may call afterwards (below).
  cases["forgotten is never called"] = forgotten.size;
  const byLead = new Map<string, Call[]>();
  for (const call of [...history.calls].sort((a, b) => a.arrivedAt - b.arrivedAt || a.seq - b.seq)) {
    const lead = leadOfCall(call);
    byLead.set(lead, [...(byLead.get(lead) ?? []), call]);
  }
  const finalOf = (lead: string) =>
    history.final?.leads.filter((row) => leadOf(row.email, row.message) === lead) ?? [];
  const violation = (rule: Rule, lead: string | undefined, message: string, extra: string[] = []) =>
    violations.push({
      rule,
      ...(lead ? { lead } : {}),
      message,
      excerpt: lead ? excerptOf(history, lead, extra) : extra,
    });
  const visitorsOf = (lead: string) =>
    history.visitors.filter((request) => leadOf(request.email, request.message) === lead);
  /**
   * Its caller's word may not be the store's: the attempt took more than half a lease from its call
   * (its outcome recorded late: the database paused or down), or its caller was frozen meanwhile,
   * so another instance's expiry of its lease may have decided the lead's state first.
   */
  const recordedLate = (call: Call, reportedAt: Time) =>
    reportedAt - call.arrivedAt > (history.leaseMs ?? Infinity) / 2 ||
    history.events.some(
      (event) =>
        event.what.startsWith(`SIGSTOP ${call.caller} `) &&
        event.at >= call.arrivedAt - (history.leaseMs ?? 0) &&
        event.at <= reportedAt,
    );

  for (const [lead, calls] of byLead) {
    const keys = new Set(calls.flatMap((call) => (call.key ? [call.key] : [])));

    // Every call is announced by its caller's `lead_call` line, printed just before it: who made a
    // call is never guessed (issue 51).
    for (const call of calls) {
      cases["every call announced"]++;
      if (call.by === undefined)
        violation(
          "every call announced",
          lead,
          `call #${call.seq} (${call.caller}) arrived without a \`lead_call\` line of its caller announcing it`,
        );
    }

    // Kept first (decision 032): the lead's row is in the store when its call arrives. A forget of the
    // lead begun before the harness looked may have erased it since: not judged.
    for (const call of calls) {
      if (call.stored === undefined) continue;
      const lookedAt = call.lookedAt ?? call.arrivedAt;
      if ((history.forgotten ?? []).some((one) => one.began?.lead === lead && one.began.at <= lookedAt))
        continue;
      cases["stored before its first call"]++;
      if (!call.stored)
        violation(
          "stored before its first call",
          lead,
          `call #${call.seq} (${call.caller}, ${pathOf(call)}) arrived while the store held no row ${call.key}`,
        );
    }

    // A forgotten lead is gone: nothing can take it once its forget has ended, so a call of it can
    // only be an attempt begun before, which its lease bounds (decision 044: the call's deadline
    // counts from before beginCall); its outcome then finds no row.
    const forgottenAt = forgotten.get(lead);
    if (forgottenAt !== undefined)
      for (const call of calls)
        if (call.arrivedAt > forgottenAt + (history.leaseMs ?? 0) + SLACK_MS)
          violation(
            "forgotten is never called",
            lead,
            `call #${call.seq} (${call.caller}, ${pathOf(call)}) arrived ${((call.arrivedAt - forgottenAt) / 1000).toFixed(3)} s after \`leads forget\` had erased it`,
          );

    // No two calls for one lead in flight at once, at the function: a call is in flight until the
    // function was done with it, even after its caller gave up (issue 40). Two exceptions, both under
    // the lead's one key, which the function deduplicates (decision 044): a caller paused longer than
    // its lease (SIGSTOP) cannot be stopped by the lease; and once a caller gave up on an unknown
    // outcome, the lead is held, and a person may ask for it again while the function is still at
    // the first call. A case: a call arriving while another was in flight, or a visitor's post sent
    // while a call of the lead was in flight or, before the lead was delivered, another post was open.
    const posts = visitorsOf(lead);
    cases["one call in flight"] += posts.filter(
      (request) =>
        calls.some((call) => call.arrivedAt <= request.sentAt && request.sentAt < inFlightUntil(call)) ||
        (posts.some(
          (other) => other !== request && other.sentAt <= request.sentAt && request.sentAt <= other.endedAt,
        ) &&
          !calls.some((call) => call.plan === "ok" && call.answered && call.endedAt < request.sentAt)),
    ).length;
    let longest: Call | undefined;
    for (const call of calls) {
      const pausedMeanwhile = (earlier: Call) =>
        history.events.some(
          (event) =>
            event.what.startsWith(`SIGSTOP ${earlier.caller} `) &&
            event.at >= earlier.arrivedAt - SLACK_MS &&
            event.at <= call.arrivedAt,
        );
      const path = pathOf(call);
      if (longest && call.arrivedAt < inFlightUntil(longest)) {
        cases["one call in flight"]++;
        const callerGaveUp = call.arrivedAt >= longest.endedAt;
        const excused =
          call.key === longest.key && (pausedMeanwhile(longest) || (callerGaveUp && byPerson(path)));
        if (!excused)
          violation(
            "one call in flight",
            lead,
            `call #${call.seq} (${call.caller}, ${path}) arrived while call #${longest.seq} (${longest.caller}) was still in flight` +
              (callerGaveUp ? " at the function, after its caller gave up" : ""),
          );
      }
      if (!longest || inFlightUntil(call) > inFlightUntil(longest)) longest = call;
    }

    // Delivered within the window means a duplicate, never a call (decision 032): once a caller has
    // recorded a lead as delivered, nothing calls it again.
    for (const call of calls) {
      const delivered = calls.find(
        (earlier) => earlier !== call && deliveredBefore(earlier, call.arrivedAt, history),
      );
      if (delivered)
        violation(
          "one confirmed call",
          lead,
          `call #${call.seq} (${call.caller}, ${pathOf(call)}) after ${delivered.caller} had recorded call #${delivered.seq} as delivered`,
        );
    }

    // At most one call the function ran (2xx, or ran and then a 504 or a cut): a second only when the
    // first one's outcome was lost and a person asked for the lead again (a visitor's resend,
    // `retry --include-possibly-delivered`). A case: such a resend after the function ran a call.
    const firstRan = calls.find(ran);
    if (firstRan)
      cases["one confirmed call"] +=
        visitorsOf(lead).filter((request) => request.sentAt > firstRan.arrivedAt).length +
        calls.filter(
          (call) =>
            call.arrivedAt > firstRan.arrivedAt && pathOf(call) === "retry --include-possibly-delivered",
        ).length;
    let confirmed: Call | undefined;
    for (const call of calls) {
      if (!ran(call)) continue;
      if (confirmed && !deliveredBefore(confirmed, call.arrivedAt, history) && !byPerson(pathOf(call)))
        violation(
          "one confirmed call",
          lead,
          `confirmed twice: call #${confirmed.seq} (${confirmed.caller}) and call #${call.seq} (${call.caller}, ${pathOf(call)}), ` +
            "and no person asked for the lead again in between",
        );
      confirmed = call;
    }

    // Held when unsure (docs/lead-store.md, "States"): once a call may have reached the function
    // without its caller learning the outcome (or was confirmed), no machine (a dispatcher, `retry`
    // without the flag) calls that lead again, even after a person's resend failed for sure: the
    // earlier unknown call still stands. A case: a lead held so.
    if (calls.some((call) => !sureFailure(call) && !(call.plan === "ok" && call.answered)))
      cases["no machine resend"]++;
    for (const [index, call] of calls.entries()) {
      const path = pathOf(call);
      if (byPerson(path)) continue;
      const unsure = calls
        .slice(0, index)
        .find((earlier) => earlier.key === call.key && !sureFailure(earlier));
      if (!unsure) continue;
      violation(
        "no machine resend",
        lead,
        `call #${call.seq} by the ${path} of ${call.caller} after call #${unsure.seq}, which may have reached the function ` +
          `(${unsure.plan === "ok" ? "2xx" : unsure.plan}${unsure.answered ? "" : ", outcome never reached its caller"})`,
      );
    }

    // One key per lead, one lead per key, and the key is the lead's id. A case: a lead called.
    cases["one key"]++;
    const rows = finalOf(lead);
    if (keys.size > 1 || calls.some((call) => call.key === undefined))
      violation("one key", lead, `one lead sent under ${keys.size} keys: ${[...keys].join(", ")}`);
    else if (rows.length === 1 && keys.size === 1 && !keys.has(rows[0]!.id))
      violation("one key", lead, `sent under key ${[...keys][0]} but stored as lead ${rows[0]!.id}`);
  }
  const leadsOfKey = new Map<string, Set<string>>();
  for (const call of history.calls)
    if (call.key) leadsOfKey.set(call.key, (leadsOfKey.get(call.key) ?? new Set()).add(leadOfCall(call)));
  for (const [key, leads] of leadsOfKey)
    if (leads.size > 1)
      violation("one key", undefined, `key ${key} carried ${leads.size} different leads`, [...leads]);

  // Every visitor told "sent" was told so after a confirmed call of that lead.
  for (const request of history.visitors) {
    if (request.outcome !== "sent") continue;
    cases["told sent means confirmed"]++;
    const lead = leadOf(request.email, request.message);
    const confirmedBefore = (byLead.get(lead) ?? []).some(
      (call) => call.plan === "ok" && call.answered && call.endedAt <= request.endedAt + SLACK_MS,
    );
    if (!confirmedBefore)
      violation(
        "told sent means confirmed",
        lead,
        `visitor ${request.id} was told "sent" with no confirmed call of the lead before`,
      );
  }

  // As each attempt ended: a lead its caller reported held (possibly delivered) had a call that may
  // have reached the function, or its caller's own call timed out (its request may arrive after it
  // gave up, or never leave while it is frozen); a lead it reported dead had the limit of attempts,
  // every call of it a sure failure. Not judged when its caller's word may not be the store's
  // (recordedLate).
  const callsOfKey = (key: string, until: Time) =>
    history.calls.filter((call) => call.key === key && call.arrivedAt < until);
  const madeDead = new Set<string>();
  // Leads held rightly at some report: a person's later resend that fails for sure leaves them held.
  const heldRightly = new Set<string>();
  for (const report of history.reports) {
    if (report.state !== "possibly_delivered" && report.state !== "dead") continue;
    const before = callsOfKey(report.key, report.at);
    const own = before.filter((call) => call.caller === report.caller).at(-1);
    if (own && recordedLate(own, report.at)) {
      // Its lease may have ended with its call under way: the store rightly holds what it cannot know.
      if (report.state === "possibly_delivered") heldRightly.add(report.key);
      continue;
    }
    const lead = before[0] ? leadOfCall(before[0]) : undefined;
    const unsure = before.find((call) => !sureFailure(call));
    if (report.state === "possibly_delivered") {
      cases["held only when unsure"]++;
      // Its caller never learned whether the function ran its own call: it timed out, or its
      // connection was lost under it as the function went down (the port closing cuts the kept-alive
      // connections, and a request sent on one meanwhile is lost unread).
      const cutGoingDown =
        report.reason === "network" &&
        history.events.some(
          (event) =>
            event.what.startsWith('function {"kind":"down"') &&
            event.at <= report.at &&
            event.at >= report.at - (history.leaseMs ?? 0),
        );
      if (unsure || report.reason === "timeout" || cutGoingDown) heldRightly.add(report.key);
      else if (!heldRightly.has(report.key))
        violation(
          "held only when unsure",
          lead,
          `${report.caller} held lead ${report.key} as possibly delivered, but every call of it had failed for sure`,
        );
    } else {
      cases["dead after the limit"]++;
      const early = history.maxAttempts !== undefined && (report.attempt ?? 0) < history.maxAttempts;
      // Each lead once: its later attempts (a visitor's resends of it, dead again) repeat the first.
      if ((unsure || early) && !madeDead.has(report.key) && madeDead.add(report.key))
        violation(
          "dead after the limit",
          lead,
          unsure
            ? `${report.caller} made lead ${report.key} dead after call #${unsure.seq}, which may have reached the function: held leads stay held`
            : `${report.caller} made lead ${report.key} dead after ${report.attempt} attempts (the limit: ${history.maxAttempts})`,
        );
    }
  }

  // At the end: every lead the store took (a visitor told it was sent, or told it failed and that
  // the store keeps it) or the function saw is delivered, or held for a person in a state the
  // history explains. None vanished.
  if (history.final) {
    const admitted = new Map<string, VisitorRequest>();
    for (const request of history.visitors)
      if (request.outcome === "sent" || request.keptIn === "store")
        admitted.set(leadOf(request.email, request.message), request);
    const leads = new Set([
      ...byLead.keys(),
      ...admitted.keys(),
      ...history.final.leads.map((row) => leadOf(row.email, row.message)),
    ]);
    for (const lead of leads) {
      // Forgotten while the faults ran: gone, as asked (the rule above and the check below).
      if (forgotten.has(lead)) continue;
      cases["delivered or held"]++;
      const rows = finalOf(lead);
      const calls = byLead.get(lead) ?? [];
      if (rows.length > 1) {
        violation(
          "delivered or held",
          lead,
          `${rows.length} rows for one lead: ${rows.map((row) => `${row.id} ${row.state}`).join(", ")}`,
        );
        continue;
      }
      const row = rows[0];
      if (!row) {
        const visitor = admitted.get(lead);
        violation(
          "delivered or held",
          lead,
          calls.length > 0
            ? `reached the function (${calls.length} call(s)) but is not in the store at the end`
            : `taken by the store (visitor ${visitor?.id} told ${visitor?.outcome}) but not in it at the end: vanished`,
        );
        continue;
      }
      const listed = history.final.listOutput
        .split("\n")
        .some((line) => line.includes(row.email) && line.includes(row.state.replaceAll("_", "-")));
      const own = calls.filter((call) => call.key === row.id);
      if (row.state === "delivered") {
        if (!own.some((call) => call.plan === "ok" && call.answered))
          violation(
            "delivered or held",
            lead,
            `lead ${row.id} is delivered, but no call under its key was confirmed`,
          );
      } else if (row.state === "possibly_delivered") {
        cases["held only when unsure"]++;
        if (!listed)
          violation(
            "held only when unsure",
            lead,
            `lead ${row.id} is possibly delivered but not in \`npm run leads -- list\``,
            ["list output:", ...history.final.listOutput.split("\n")],
          );
        // Held since a call whose outcome never reached its caller, one begun when its process
        // was killed or frozen and never arrived, or an attempt held rightly as it ended (above:
        // its connection cut as the function went down, perhaps before the function read it).
        const lost = own.some((call) => !settled(call, history)) || heldRightly.has(row.id);
        const last = own.at(-1);
        const leaving = history.kills.some((kill) =>
          kill.sending.some(
            (sending) =>
              sending.id === row.id &&
              sending.callStartedAt !== null &&
              sending.callStartedAt >= (last?.arrivedAt ?? -Infinity) &&
              kill.at - sending.callStartedAt <= CALL_LEAVING_MS &&
              !own.some((call) => call.arrivedAt >= sending.callStartedAt! - SLACK_MS),
          ),
        );
        if (!lost && !leaving)
          violation(
            "held only when unsure",
            lead,
            last
              ? `lead ${row.id} is held as possibly delivered, but every call of it ended in an outcome its caller recorded`
              : `lead ${row.id} is held as possibly delivered, but no call of it ever reached the function`,
          );
      } else if (row.state === "dead") {
        // The product gave up after CONTACT_RETRY_MAX_ATTEMPTS sure failures: held for a person, listed.
        cases["dead after the limit"]++;
        const unsure = own.find((call) => !sureFailure(call));
        if (!listed || unsure || history.maxAttempts === undefined || row.attempts < history.maxAttempts)
          violation(
            "dead after the limit",
            lead,
            `lead ${row.id} is dead after ${row.attempts} attempts (the limit: ${history.maxAttempts ?? "none"})` +
              (unsure
                ? `, but its call #${unsure.seq} may have reached the function: held leads stay held`
                : "") +
              (listed ? "" : ", and not in `npm run leads -- list`"),
          );
      } else {
        violation(
          "delivered or held",
          lead,
          `lead ${row.id} is ${row.state} after the quiet period (the function answering, every instance up)` +
            (listed ? "" : ", and not in `npm run leads -- list`"),
        );
      }
    }
  }

  // A server exits when it is told to, never by itself. A case: a server started.
  cases["no crash"] = history.events.filter((event) => / started \(clock /.test(event.what)).length;
  for (const crash of history.crashes)
    violation(
      "no crash",
      undefined,
      `${crash.caller} exited by itself (${crash.how}) at ${at(history, crash.at)}`,
      [`its last lines:`, ...crash.output.map((line) => `  ${line}`)],
    );

  for (const forgotten of history.forgotten ?? []) {
    // One posted again after its forget is a new lead, rightly stored.
    if (forgotten.during && !forgottenForGood(history).has(forgotten.during.lead)) continue;
    cases["forget leaves nothing"]++;
    if (forgotten.files.length > 0 || forgotten.rows.length > 0)
      violation(
        "forget leaves nothing",
        undefined,
        `after \`leads forget ${forgotten.address}\` the address is still stored`,
        [...forgotten.files.map((file) => `file ${file}`), ...forgotten.rows.map((row) => `row ${row}`)],
      );
  }
  return { violations, cases };
}

/** Lead by lead, each lead's history once: `maxLeads` leads in full, the others a line each. */
export function formatViolations(
  history: History,
  violations: Violation[],
  replay: string,
  maxLeads = Infinity,
): string {
  const lines = [
    `${violations.length} violation(s) in the ${history.engine} history of seed ${history.seed} (replay: ${replay})`,
  ];
  const groups = new Map<string, Violation[]>();
  for (const found of violations) {
    const group = found.lead ?? `(${found.rule}: ${found.message})`;
    groups.set(group, [...(groups.get(group) ?? []), found]);
  }
  let shown = 0;
  for (const [group, found] of groups) {
    if (shown++ >= maxLeads) {
      lines.push(
        `- ${group}: ${found.length} violation(s), the first: [${found[0]!.rule}] ${found[0]!.message}`,
      );
      continue;
    }
    lines.push("", `${found[0]!.lead ?? "Not about one lead"} (seed ${history.seed}):`);
    for (const each of found) lines.push(`  - [${each.rule}] ${each.message}`);
    lines.push("  its history:", ...found[0]!.excerpt.map((line) => `     ${line}`));
  }
  return lines.join("\n");
}
