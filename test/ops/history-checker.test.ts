import { describe, expect, it } from "vitest";

import {
  type AttemptReport,
  type Call,
  check,
  emptyHistory,
  hollowRun,
  type FinalLead,
  formatViolations,
  type History,
  judge,
  JUDGED_AFTER_THE_FAULTS,
  type Rule,
  RULES,
  type VisitorRequest,
} from "../support/history/checker";

/**
 * The history test's checker, fed small hand-written histories: for each rule, ones that break it
 * (each must be caught) and legitimate ones it must let pass. Pure: no server, no build.
 */

const T = 1_800_000_000_000;
const EMAIL = "ada@example.com";
const MESSAGE = "Please call me about our invoices.";
let seq = 0;

const call = (fields: Partial<Call> = {}): Call => ({
  seq: ++seq,
  caller: "pg-a.1",
  key: "lead-1",
  email: EMAIL,
  message: MESSAGE,
  arrivedAt: T,
  endedAt: T + 20,
  plan: "ok",
  status: 200,
  answered: true,
  by: "dispatcher",
  ...fields,
});

/** A hung call: its caller gave up at its timeout, the function stayed stuck for 6 s more. */
const stuckAfterCallerLeft = () =>
  call({ plan: "hang", status: 0, answered: false, endedAt: T + 1_500, finishedAt: T + 7_500 });

const report = (fields: Partial<AttemptReport> = {}): AttemptReport => ({
  at: T + 30,
  caller: "pg-a.1",
  key: "lead-1",
  by: "dispatcher",
  state: "delivered",
  ...fields,
});

const visitor = (fields: Partial<VisitorRequest> = {}): VisitorRequest => ({
  id: "v1",
  slot: "pg-a",
  email: EMAIL,
  message: MESSAGE,
  sentAt: T - 10,
  endedAt: T + 40,
  outcome: "sent",
  status: 303,
  ...fields,
});

const row = (fields: Partial<FinalLead> = {}): FinalLead => ({
  id: "lead-1",
  email: EMAIL,
  message: MESSAGE,
  state: "delivered",
  attempts: 1,
  ...fields,
});

const listOf = (...rows: FinalLead[]) =>
  rows
    .map((lead) => `${lead.state.replaceAll("_", "-")}  2026-11-28 04:16  1  unknown  Ada  ${lead.email}`)
    .join("\n");

const history = (fields: Partial<History> = {}): History => ({
  ...emptyHistory(4242, "postgres", T - 5_000),
  final: { leads: [row()], listOutput: "" },
  forgotten: [],
  ...fields,
});

const rules = (input: History): Rule[] => check(input).map((violation) => violation.rule);

/**
 * A history in which every rule judged one case, the least a run must give (issue 51): a held lead
 * resent by its visitor while the function was still at its first call, and delivered; a dead lead;
 * a lead forgotten while the faults ran; a server started; an instance killed.
 */
const tested = (): History => {
  const dead = row({ id: "lead-2", email: "bob@example.com", state: "dead", attempts: 1 });
  const gone = `cy@example.com | ${MESSAGE}`;
  return history({
    calls: [
      call({
        plan: "hang",
        status: 0,
        answered: false,
        endedAt: T + 1_500,
        finishedAt: T + 3_000,
        stored: true,
      }),
      call({ caller: "pg-b.1", by: "visitor", arrivedAt: T + 2_000, endedAt: T + 2_020, stored: true }),
      call({
        key: "lead-2",
        email: "bob@example.com",
        plan: "fail",
        status: 503,
        arrivedAt: T + 4_000,
        endedAt: T + 4_020,
      }),
    ],
    reports: [
      report({ state: "possibly_delivered", at: T + 1_510 }),
      report({ caller: "pg-b.1", by: "visitor", at: T + 2_030 }),
      report({ key: "lead-2", state: "dead", attempt: 1, at: T + 4_030 }),
    ],
    visitors: [
      visitor({ slot: "pg-b", sentAt: T + 1_990, endedAt: T + 2_040 }),
      visitor({ id: "v2", sentAt: T + 2_500, endedAt: T + 2_510, result: "duplicate" }),
    ],
    maxAttempts: 1,
    faultKinds: ["SIGKILL"],
    events: [
      { at: T - 4_000, what: "pg-a.1 started (clock +0.0 s)" },
      { at: T + 5_000, what: "SIGKILL pg-a.1" },
      { at: T + 5_000, what: "database: postgres stopped" },
    ],
    final: { leads: [row(), dead], listOutput: listOf(dead) },
    forgotten: [
      { address: "CY@EXAMPLE.COM", during: { from: T, to: T + 500, lead: gone }, files: [], rows: [] },
    ],
  });
};

describe("a run that tested nothing", () => {
  it("an empty history is hollow: every rule judged nothing, no fault", () => {
    expect(hollowRun(emptyHistory(1, "postgres", T))).toEqual([
      ...RULES.map((rule) => `the rule "${rule}" judged 0 case(s), fewer than its minimum 1`),
      "no instance was killed or stopped",
      "no database fault was injected",
      "no fault kinds were declared",
    ]);
  });

  it("a run in which a rule judged fewer cases than its minimum is hollow, naming the rule (issue 51)", () => {
    expect(check(tested())).toEqual([]);
    // Two posts and a call while the first call was in flight: three cases of two attempts at once.
    expect(judge(tested()).cases["one call in flight"]).toBe(3);
    expect(hollowRun(tested())).toEqual([]);
    expect(hollowRun({ ...tested(), minimumCases: { "one call in flight": 4 } })).toEqual([
      'the rule "one call in flight" judged 3 case(s), fewer than its minimum 4',
    ]);
    // A minimum below one is one: a rule that judged nothing tested nothing.
    const noDeadLead = { ...tested(), minimumCases: { "dead after the limit": 0 } };
    noDeadLead.reports = noDeadLead.reports.filter((one) => one.state !== "dead");
    noDeadLead.final = { leads: [row()], listOutput: "" };
    noDeadLead.calls = noDeadLead.calls.filter((one) => one.key !== "lead-2");
    expect(hollowRun(noDeadLead)).toEqual([
      'the rule "dead after the limit" judged 0 case(s), fewer than its minimum 1',
    ]);
    const nothingForgotten = { ...tested(), forgotten: [] };
    expect(hollowRun(nothingForgotten)).toEqual([
      'the rule "forget leaves nothing" judged 0 case(s), fewer than its minimum 1',
      'the rule "forgotten is never called" judged 0 case(s), fewer than its minimum 1',
    ]);
    // The store never looked at while the calls arrived (a database fault each time): not one judged.
    const neverLooked = { ...tested(), calls: tested().calls.map(({ stored: _, ...rest }) => rest) };
    expect(hollowRun(neverLooked)).toEqual([
      'the rule "stored before its first call" judged 0 case(s), fewer than its minimum 1',
    ]);
  });

  it("while the faults run, every rule but those judged after them has cases, never more than at the end", () => {
    // What runHistory waits for before it ends the faults: a rule in the wrong list would make it
    // wait for cases that cannot come yet, or count some that the end does not.
    const whole = judge(tested()).cases;
    const running = judge({ ...tested(), final: undefined, forgotten: [] }).cases;
    for (const rule of RULES) {
      const after = JUDGED_AFTER_THE_FAULTS.includes(rule);
      expect(
        whole[rule] > 0 && (after ? running[rule] === 0 : running[rule] > 0 && running[rule] <= whole[rule]),
        `${rule}: ${running[rule]} of ${whole[rule]}`,
      ).toBe(true);
    }
  });

  it("a run without a kind of fault it declared is hollow, and so is one that declared none", () => {
    const plans = ["ok", "fail", "hang", "garbage", "ran-504", "ran-cut"] as const;
    const base = tested();
    const declared = {
      ...base,
      calls: [
        ...base.calls,
        ...plans.map((plan, index) =>
          call({ plan, key: `lead-${9 + index}`, message: `Lead ${index}`, arrivedAt: T + 10_000 + index }),
        ),
      ],
      final: {
        ...base.final!,
        leads: [
          ...base.final!.leads,
          ...plans.map((_, index) => row({ id: `lead-${9 + index}`, message: `Lead ${index}` })),
        ],
      },
      faultKinds: ['function {"kind":"hang"', "SIGSTOP", "database: postgres stopped"],
      events: [...base.events, { at: T, what: 'function {"kind":"hang"}' }],
    };
    expect(hollowRun(declared)).toEqual(["no fault of kind SIGSTOP was injected"]);
    declared.events.push({ at: T + 1, what: "SIGSTOP pg-b.1 for 8000 ms" });
    expect(hollowRun(declared)).toEqual([]);
    expect(hollowRun({ ...declared, faultKinds: [] })).toEqual(["no fault kinds were declared"]);
    // A function fault that no call met was not injected.
    const unmet = { ...declared, calls: declared.calls.filter((one) => one.plan !== "ran-cut") };
    expect(hollowRun(unmet)).toEqual(["no call met the plan ran-cut"]);
    // Without an instance killed, or on PostgreSQL without a database fault.
    const noKill = {
      ...declared,
      faultKinds: ["SIGSTOP"],
      events: declared.events.filter((one) => !one.what.startsWith("SIGKILL")),
    };
    expect(hollowRun(noKill)).toEqual(["no instance was killed or stopped"]);
    const noDatabase = {
      ...declared,
      faultKinds: ["SIGSTOP"],
      events: declared.events.filter((one) => !one.what.startsWith("database")),
    };
    expect(hollowRun(noDatabase)).toEqual(["no database fault was injected"]);
    expect(hollowRun({ ...noDatabase, engine: "sqlite" })).toEqual([]);
  });
});

describe("the history checker", () => {
  it("finds nothing in a history that keeps every rule", () => {
    const input = history({
      calls: [
        call({ plan: "fail", status: 503, caller: "pg-a.1", endedAt: T + 20 }),
        call({ caller: "pg-b.1", arrivedAt: T + 1_000, endedAt: T + 1_020 }),
      ],
      reports: [report({ state: "pending", by: "visitor" }), report({ caller: "pg-b.1", at: T + 1_030 })],
      visitors: [
        visitor({ outcome: "failed", status: 502 }),
        visitor({ id: "v2", slot: "pg-b", sentAt: T + 1_100, endedAt: T + 1_110, result: "duplicate" }),
      ],
    });
    expect(check(input)).toEqual([]);
  });

  describe("no two calls for one lead in flight at once", () => {
    it("catches two overlapping calls, whatever their keys", () => {
      const input = history({
        calls: [
          call({ endedAt: T + 500 }),
          call({ caller: "pg-b.1", arrivedAt: T + 100, endedAt: T + 200, plan: "fail", status: 500 }),
        ],
        reports: [report({ at: T + 510 })],
      });
      expect(rules(input)).toContain("one call in flight");
    });

    it("catches a call that arrives while a hanging one is still open, under any address case", () => {
      const input = history({
        calls: [
          call({ plan: "hang", status: 0, answered: false, endedAt: T + 1_500 }),
          call({ email: "ADA@example.com", caller: "pg-c.1", arrivedAt: T + 1_400, endedAt: T + 1_420 }),
        ],
      });
      expect(rules(input)).toContain("one call in flight");
    });

    it("catches a dispatcher calling while the function is still at a call whose caller gave up", () => {
      const input = history({
        calls: [
          stuckAfterCallerLeft(),
          call({ caller: "pg-b.1", arrivedAt: T + 4_000, endedAt: T + 4_020, plan: "fail", status: 503 }),
        ],
        reports: [
          report({ state: "possibly_delivered", by: "visitor", at: T + 1_510 }),
          report({ caller: "pg-b.1", state: "pending", at: T + 4_030 }),
        ],
      });
      expect(rules(input)).toContain("one call in flight");
      // Counted as ended when its caller gave up, the overlap would go unseen.
      const untilTheCallerLeft = { ...input, calls: input.calls.map(({ finishedAt: _, ...rest }) => rest) };
      expect(rules(untilTheCallerLeft)).not.toContain("one call in flight");
    });

    it("catches a machine calling it meanwhile, even once a person's attempt since failed for sure: the lead stays held (docs/lead-store.md; 27ef1ed had let it)", () => {
      const input = history({
        calls: [
          stuckAfterCallerLeft(),
          call({ caller: "cli.2", by: "cli", arrivedAt: T + 2_500, endedAt: T + 2_510 }),
        ],
        reports: [
          report({ state: "possibly_delivered", by: "visitor", at: T + 1_510 }),
          // A visitor's resend at another instance, refused by a function that was down: no call.
          report({ caller: "pg-b.1", state: "pending", by: "visitor", at: T + 1_800 }),
          report({ caller: "cli.2", by: "cli", at: T + 2_520 }),
        ],
      });
      expect(rules(input)).toEqual(["one call in flight", "no machine resend"]);
    });

    it("lets a visitor's resend of that held lead, under its one key, reach the function meanwhile", () => {
      const input = history({
        calls: [
          stuckAfterCallerLeft(),
          call({ caller: "pg-b.1", by: "visitor", arrivedAt: T + 4_000, endedAt: T + 4_020 }),
        ],
        reports: [
          report({ state: "possibly_delivered", by: "visitor", at: T + 1_510 }),
          report({ caller: "pg-b.1", by: "visitor", at: T + 4_030 }),
        ],
        visitors: [visitor({ slot: "pg-b", sentAt: T + 3_990, endedAt: T + 4_040 })],
      });
      expect(check(input)).toEqual([]);
      // Under another key it would be a second lead's call: caught.
      const otherKey = { ...input, calls: [input.calls[0]!, { ...input.calls[1]!, key: "lead-2" }] };
      expect(rules(otherKey)).toContain("one call in flight");
    });
  });

  describe("at most one confirmed call per lead", () => {
    it("catches a lead called again after its caller recorded it as delivered", () => {
      const input = history({
        calls: [call(), call({ caller: "pg-b.1", arrivedAt: T + 2_000, endedAt: T + 2_010 })],
        reports: [report(), report({ caller: "pg-b.1", at: T + 2_020 })],
        visitors: [visitor({ slot: "pg-b", sentAt: T + 1_990, endedAt: T + 2_030 })],
      });
      expect(rules(input)).toContain("one confirmed call");
    });

    it("catches a second 2xx that no person asked for (a dispatcher after a garbage answer)", () => {
      const input = history({
        calls: [
          call({ plan: "garbage" }),
          call({ caller: "pg-b.1", arrivedAt: T + 2_000, endedAt: T + 2_010 }),
        ],
        reports: [report({ state: "possibly_delivered" }), report({ caller: "pg-b.1", at: T + 2_020 })],
      });
      expect(rules(input)).toContain("one confirmed call");
    });

    it("lets a visitor's resend of a lead whose confirmation was lost (its instance killed) make a second call", () => {
      const input = history({
        calls: [
          call({ caller: "pg-a.1" }),
          call({ caller: "pg-b.1", by: "visitor", arrivedAt: T + 9_000, endedAt: T + 9_010 }),
        ],
        reports: [report({ caller: "pg-b.1", at: T + 9_020, by: "visitor" })],
        visitors: [visitor({ slot: "pg-b", sentAt: T + 8_990, endedAt: T + 9_030 })],
        events: [{ at: T + 25, what: "SIGKILL pg-a.1 (a call under way)" }],
      });
      expect(check(input)).toEqual([]);
    });

    /** A garbage answer (possibly delivered), then a second call by the CLI run `caller` names. */
    const secondCallBy = (caller: string) =>
      history({
        calls: [
          call({ plan: "garbage" }),
          call({ caller, by: "cli", arrivedAt: T + 5_000, endedAt: T + 5_010 }),
        ],
        reports: [report({ state: "possibly_delivered" }), report({ caller, by: "cli", at: T + 5_020 })],
      });

    it("lets `retry --include-possibly-delivered` make a second call, knowingly", () => {
      expect(check(secondCallBy("cli-pd.3"))).toEqual([]);
    });

    it("catches plain `retry` doing the same", () => {
      expect(rules(secondCallBy("cli.3"))).toEqual(
        expect.arrayContaining(["one confirmed call", "no machine resend"]),
      );
    });
  });

  describe("held when unsure: no machine resends a call that may have reached the function", () => {
    it("catches a dispatcher calling after a call that timed out", () => {
      const input = history({
        calls: [
          call({ plan: "hang", status: 0, answered: false, endedAt: T + 1_500 }),
          call({ caller: "pg-b.1", arrivedAt: T + 3_000, endedAt: T + 3_010 }),
        ],
        reports: [
          report({ state: "possibly_delivered", at: T + 1_510 }),
          report({ caller: "pg-b.1", at: T + 3_020 }),
        ],
      });
      expect(rules(input)).toContain("no machine resend");
    });

    it("catches a dispatcher calling after a call whose caller died before the answer", () => {
      const input = history({
        calls: [
          call({ plan: "fail", status: 503, answered: false }),
          call({ caller: "pg-b.1", arrivedAt: T + 9_000, endedAt: T + 9_010 }),
        ],
        reports: [report({ caller: "pg-b.1", at: T + 9_020 })],
      });
      expect(rules(input)).toContain("no machine resend");
    });

    it("lets a dispatcher call after a sure failure", () => {
      const afterFailure = history({
        calls: [
          call({ plan: "fail", status: 503 }),
          call({ caller: "pg-b.1", arrivedAt: T + 2_000, endedAt: T + 2_010 }),
        ],
        reports: [report({ state: "pending" }), report({ caller: "pg-b.1", at: T + 2_020 })],
      });
      expect(check(afterFailure)).toEqual([]);
    });

    it("catches a dispatcher calling a held lead after a person's resend of it failed for sure: it stays held (docs/lead-store.md)", () => {
      const timedOut = call({ plan: "hang", status: 0, answered: false, endedAt: T + 1_500 });
      const reports = [
        report({ state: "possibly_delivered", at: T + 1_510 }),
        report({ caller: "pg-b.1", at: T + 4_020 }),
      ];
      // The function down: the visitor's resend refused before it reached the function.
      const refused = history({
        calls: [timedOut, call({ caller: "pg-b.1", arrivedAt: T + 4_000, endedAt: T + 4_010 })],
        reports: [...reports, report({ caller: "pg-c.1", by: "visitor", state: "pending", at: T + 2_000 })],
      });
      expect(rules(refused)).toEqual(["no machine resend"]);
      // Answered 503.
      const failed = history({
        calls: [
          timedOut,
          call({
            caller: "pg-c.1",
            by: "visitor",
            plan: "fail",
            status: 503,
            arrivedAt: T + 2_000,
            endedAt: T + 2_010,
          }),
          call({ caller: "pg-b.1", arrivedAt: T + 4_000, endedAt: T + 4_010 }),
        ],
        reports: [...reports, report({ caller: "pg-c.1", by: "visitor", state: "pending", at: T + 2_020 })],
      });
      expect(rules(failed)).toEqual(["no machine resend"]);
    });
  });

  describe("one key per lead", () => {
    it("catches one lead sent under two keys (a post sent around the store under its request id)", () => {
      const input = history({
        calls: [
          call({ key: "v17", plan: "fail", status: 503 }),
          call({ key: "lead-1", caller: "pg-b.1", arrivedAt: T + 2_000, endedAt: T + 2_010 }),
        ],
        reports: [report({ caller: "pg-b.1", at: T + 2_020 })],
      });
      expect(rules(input)).toContain("one key");
    });

    it("catches a lead sent under a key that is not its id, and one key carrying two leads", () => {
      expect(
        rules(history({ calls: [call({ key: "other" })], reports: [report({ key: "other" })] })),
      ).toContain("one key");
      const twoLeads = history({
        calls: [
          call(),
          call({ message: "Another question entirely.", arrivedAt: T + 1_000, endedAt: T + 1_010 }),
        ],
        reports: [report(), report({ at: T + 1_020 })],
        final: {
          leads: [row(), row({ id: "lead-2", message: "Another question entirely." })],
          listOutput: "",
        },
      });
      expect(rules(twoLeads)).toContain("one key");
    });
  });

  describe("every lead a visitor was told was sent was confirmed", () => {
    it("catches a visitor told sent with no confirmed call, or before it", () => {
      expect(
        rules(
          history({
            calls: [call({ plan: "fail", status: 503 })],
            visitors: [visitor()],
            final: { leads: [], listOutput: "" },
          }),
        ),
      ).toContain("told sent means confirmed");
      const early = history({
        calls: [call({ arrivedAt: T + 1_000, endedAt: T + 1_010 })],
        reports: [report({ at: T + 1_020 })],
        visitors: [visitor()],
      });
      expect(rules(early)).toContain("told sent means confirmed");
    });

    it("does not take a garbage 2xx, or one whose answer never reached the caller, for a confirmation", () => {
      for (const confirmed of [call({ plan: "garbage" }), call({ answered: false })]) {
        const input = history({
          calls: [confirmed],
          visitors: [visitor()],
          final: {
            leads: [row({ state: "possibly_delivered" })],
            listOutput: listOf(row({ state: "possibly_delivered" })),
          },
        });
        expect(rules(input)).toEqual(["told sent means confirmed"]);
      }
    });
  });

  describe("at the end, every lead delivered or held in a state its history explains", () => {
    const held = row({ state: "possibly_delivered", attempts: 2 });

    it("catches a lead still pending, or dead before the limit, after the quiet period", () => {
      for (const state of ["pending", "sending", "dead"]) {
        const input = history({
          calls: [call({ plan: "fail", status: 503 })],
          reports: [report({ state: "pending" })],
          final: { leads: [row({ state })], listOutput: listOf(row({ state })) },
        });
        expect(rules(input), state).toEqual([
          state === "dead" ? "dead after the limit" : "delivered or held",
        ]);
      }
    });

    it("catches a lead held as possibly delivered that was never called, or whose last call's outcome its caller recorded", () => {
      expect(rules(history({ final: { leads: [held], listOutput: listOf(held) } }))).toEqual([
        "held only when unsure",
      ]);
      const recorded = history({
        calls: [call({ plan: "fail", status: 503 })],
        reports: [report({ state: "pending" })],
        final: { leads: [held], listOutput: listOf(held) },
      });
      expect(rules(recorded)).toEqual(["held only when unsure"]);
    });

    it("lets a lead be possibly delivered when its last call timed out, answered garbage, or lost its caller", () => {
      const lost = [
        {
          calls: [call({ plan: "hang", status: 0, answered: false })],
          reports: [report({ state: "possibly_delivered" })],
        },
        { calls: [call({ plan: "garbage" })], reports: [report({ state: "possibly_delivered" })] },
        { calls: [call({ plan: "fail", status: 503 })], reports: [] },
      ];
      for (const { calls, reports } of lost)
        expect(
          check(history({ calls, reports, final: { leads: [held], listOutput: listOf(held) } })),
        ).toEqual([]);
      // Its connection cut as the function went down, before the function read the call.
      const cut = history({
        reports: [report({ state: "possibly_delivered", reason: "network" })],
        events: [{ at: T + 10, what: 'function {"kind":"down"}' }],
        leaseMs: 6_500,
        final: { leads: [held], listOutput: listOf(held) },
      });
      expect(check(cut)).toEqual([]);
      expect(rules({ ...cut, events: [] })).toEqual(["held only when unsure", "held only when unsure"]);
    });

    it("lets a lead be possibly delivered when its process was killed or frozen just as its call began, not long after", () => {
      const kill = (startedBeforeKillMs: number) =>
        history({
          kills: [
            {
              at: T + 5_000,
              caller: "pg-a.1",
              sending: [{ id: "lead-1", callStartedAt: T + 5_000 - startedBeforeKillMs }],
            },
          ],
          final: { leads: [held], listOutput: listOf(held) },
        });
      expect(check(kill(40))).toEqual([]);
      expect(rules(kill(4_000))).toEqual(["held only when unsure"]);
    });

    it("catches a held lead that `leads list` does not show", () => {
      const input = history({
        calls: [call({ plan: "hang", status: 0, answered: false })],
        final: { leads: [held], listOutput: "No leads to deliver." },
      });
      expect(rules(input)).toEqual(["held only when unsure"]);
    });

    it("catches a lead delivered without a confirmed call under its key, two rows for one lead, and a lead the function saw but nobody holds", () => {
      expect(rules(history({ calls: [call({ plan: "garbage" })] }))).toContain("delivered or held");
      expect(
        rules(
          history({
            calls: [call()],
            reports: [report()],
            final: { leads: [row(), row({ id: "lead-2", state: "pending" })], listOutput: "" },
          }),
        ),
      ).toContain("delivered or held");
      expect(
        rules(
          history({
            calls: [call({ plan: "fail", status: 503 })],
            reports: [report({ state: "pending" })],
            final: { leads: [], listOutput: "" },
          }),
        ),
      ).toEqual(["delivered or held"]);
    });
  });

  it("catches a server that exited by itself, and shows it in the history of the leads it held", () => {
    const held = row({ state: "possibly_delivered" });
    const input = history({
      calls: [call({ plan: "hang", status: 0, answered: false, endedAt: T + 300 })],
      crashes: [{ at: T + 300, caller: "pg-a.1", how: "code 1", output: ["Unhandled 'error' event"] }],
      final: { leads: [held], listOutput: listOf(held) },
    });
    const violations = check(input);
    expect(violations.map((violation) => violation.rule)).toEqual(["no crash"]);
    expect(violations[0]!.excerpt).toContain("  Unhandled 'error' event");
  });

  it("catches a lead the store took that is not in it at the end; a lead the store never took may be absent (issue 40)", () => {
    const kept = visitor({ outcome: "failed", status: 502, result: "send-failed", keptIn: "store" });
    expect(rules(history({ visitors: [kept], final: { leads: [], listOutput: "" } }))).toEqual([
      "delivered or held",
    ]);
    expect(check(history({ visitors: [kept], final: { leads: [], listOutput: "" } }))[0]!.message).toMatch(
      /vanished/,
    );
    // Logged whole on stderr when the store could not be written: never taken, so never looked for.
    const logged = visitor({ outcome: "failed", status: 502, result: "send-failed", keptIn: "stderr" });
    expect(rules(history({ visitors: [logged], final: { leads: [], listOutput: "" } }))).toEqual([]);
    // A lead a call carried is in the store at the end, even one the function confirmed.
    expect(
      rules(history({ calls: [call()], reports: [report()], final: { leads: [], listOutput: "" } })),
    ).toEqual(["delivered or held"]);
  });

  it("a 504 or a cut after the function ran: a machine calling the lead again is caught, a person's resend is not (issue 40)", () => {
    for (const plan of ["ran-504", "ran-cut"] as const) {
      const first = call({ plan, status: plan === "ran-504" ? 504 : 0, answered: plan === "ran-504" });
      const held = row({ state: "possibly_delivered" });
      const again = call({ caller: "pg-b.1", arrivedAt: T + 3_000, endedAt: T + 3_020 });
      const byMachine = history({
        calls: [first, again],
        reports: [
          report({ state: "possibly_delivered" }),
          report({ caller: "pg-b.1", at: T + 3_030, by: "dispatcher" }),
        ],
        final: { leads: [row()], listOutput: "" },
      });
      expect(rules(byMachine)).toEqual(["one confirmed call", "no machine resend"]);
      const byPerson = history({
        calls: [first, { ...again, by: "visitor" }],
        reports: [
          report({ state: "possibly_delivered" }),
          report({ caller: "pg-b.1", at: T + 3_030, by: "visitor" }),
        ],
        visitors: [visitor({ slot: "pg-b", sentAt: T + 2_990, endedAt: T + 3_040 })],
        final: { leads: [row()], listOutput: "" },
      });
      expect(rules(byPerson)).toEqual([]);
      // Held, and rightly: its call ran and nobody learned it.
      expect(
        rules(
          history({
            calls: [first],
            reports: [report({ state: "possibly_delivered" })],
            final: { leads: [held], listOutput: listOf(held) },
          }),
        ),
      ).toEqual([]);
    }
  });

  it("who made a call is its caller's `lead_call` line, not a visitor's request open meanwhile; a call no line announced is caught (issue 51)", () => {
    // A dispatcher's call made while a visitor's request for the lead was open at the same instance.
    const first = call({ plan: "ran-504", status: 504 });
    const second = call({ arrivedAt: T + 3_000, endedAt: T + 3_020 });
    const input = history({
      calls: [first, second],
      reports: [report({ state: "possibly_delivered" }), report({ at: T + 3_030, by: "dispatcher" })],
      visitors: [visitor({ sentAt: T + 2_900, endedAt: T + 3_100, outcome: "limited", status: 429 })],
    });
    expect(rules(input)).toEqual(["one confirmed call", "no machine resend"]);
    expect(check(input)[1]!.message).toContain("by the dispatcher of pg-a.1");
    // Its caller killed before it could report: the line printed before the call still says who.
    const killed = { ...input, reports: [input.reports[0]!] };
    expect(check(killed)[1]!.message).toContain("by the dispatcher of pg-a.1");
    const { by: _, ...unannounced } = second;
    expect(rules({ ...input, calls: [first, unannounced] })).toEqual([
      "every call announced",
      "one confirmed call",
      "no machine resend",
    ]);
  });

  it("a lead's row is in the store when its call arrives; one not yet stored is caught, unless a forget of it had begun (issue 51)", () => {
    const stored = history({ calls: [call({ stored: true, lookedAt: T + 2 })], reports: [report()] });
    expect(check(stored)).toEqual([]);
    expect(judge(stored).cases["stored before its first call"]).toBe(1);
    const calledFirst = history({ calls: [call({ stored: false, lookedAt: T + 2 })], reports: [report()] });
    expect(rules(calledFirst)).toEqual(["stored before its first call"]);
    expect(check(calledFirst)[0]!.excerpt.join("\n")).toContain("its row not in the store yet");
    // Not looked at (a database fault under way): not judged.
    expect(
      judge(history({ calls: [call()], reports: [report()] })).cases["stored before its first call"],
    ).toBe(0);
    // A forget of the lead began before the look: its row may be gone since, rightly.
    const forgetting = {
      address: "ADA@EXAMPLE.COM",
      began: { at: T + 1, lead: `${EMAIL} | ${MESSAGE}` },
      files: [],
      rows: [],
    };
    expect(rules({ ...calledFirst, forgotten: [forgetting] })).toEqual([]);
    expect(
      rules({ ...calledFirst, forgotten: [{ ...forgetting, began: { ...forgetting.began, at: T + 3 } }] }),
    ).toEqual(["stored before its first call"]);
  });

  it("a dead lead is held for a person after the limit of sure failures; dead too soon, or after a call that may have arrived, is caught (issue 40)", () => {
    const dead = row({ state: "dead", attempts: 3 });
    const failures = [0, 1, 2].map((index) =>
      call({ plan: "fail", status: 503, arrivedAt: T + index * 2_000, endedAt: T + index * 2_000 + 20 }),
    );
    const reports = failures.map((failure, index) =>
      report({ at: failure.endedAt + 10, state: index === 2 ? "dead" : "pending", attempt: index + 1 }),
    );
    const base = {
      calls: failures,
      reports,
      maxAttempts: 3,
      final: { leads: [dead], listOutput: listOf(dead) },
    };
    expect(rules(history(base))).toEqual([]);
    // Made dead too soon: as it happened, and at the end.
    expect(rules(history({ ...base, maxAttempts: 4 }))).toEqual([
      "dead after the limit",
      "dead after the limit",
    ]);
    expect(rules(history({ ...base, final: { leads: [dead], listOutput: "" } }))).toEqual([
      "dead after the limit",
    ]);
    // Its last call may have reached the function: it is held, not dead.
    const ranLast = [...failures.slice(0, 2), { ...failures[2]!, plan: "ran-504" as const, status: 504 }];
    expect(rules(history({ ...base, calls: ranLast }))).toEqual([
      "dead after the limit",
      "dead after the limit",
    ]);
    // Held after its first call, then a person's resends failed for sure: still held, never dead
    // (docs/lead-store.md); the dead report is caught even when a later resend delivers it.
    const heldFirst = [
      { ...failures[0]!, plan: "hang" as const, status: 0, answered: false },
      ...failures.slice(1),
    ];
    const resent = heldFirst.map((one, index) => (index === 0 ? one : { ...one, by: "visitor" as const }));
    const delivered = history({
      ...base,
      calls: [...resent, call({ by: "visitor", arrivedAt: T + 9_000, endedAt: T + 9_020 })],
      final: { leads: [row({ attempts: 4 })], listOutput: "" },
    });
    expect(rules(delivered)).toEqual(["dead after the limit"]);
    expect(check(delivered)[0]!.message).toContain("held leads stay held");
  });

  it("a lead reported held had a call that may have reached the function; one held after sure failures only is caught, unless its caller's call timed out or its outcome was recorded late", () => {
    const failed = call({ plan: "fail", status: 503 });
    const held = history({
      calls: [failed],
      reports: [report({ state: "possibly_delivered" })],
      final: { leads: [row({ state: "pending" })], listOutput: "" },
    });
    expect(rules(held)).toEqual(["held only when unsure", "delivered or held"]);
    // Its caller's call timed out (a frozen caller, or one that gave up before the function had
    // it): it never learned the outcome, whatever the function did.
    const timedOut = { ...held, reports: [report({ state: "possibly_delivered", reason: "timeout" })] };
    expect(rules(timedOut)).toEqual(["delivered or held"]);
    // Its connection lost under it as the function went down: unknown too; lost otherwise, not.
    const lost = { ...held, reports: [report({ state: "possibly_delivered", reason: "network" })] };
    expect(rules(lost)).toEqual(["held only when unsure", "delivered or held"]);
    const goingDown = { ...lost, events: [{ at: T + 10, what: 'function {"kind":"down"}' }], leaseMs: 6_500 };
    expect(rules(goingDown)).toEqual(["delivered or held"]);
    // Held so, then a person's resend failed for sure (a 500): it stays held, rightly.
    const resentAfterDown = {
      ...goingDown,
      calls: [
        failed,
        { ...failed, status: 500, by: "visitor" as const, arrivedAt: T + 5_000, endedAt: T + 5_010 },
      ],
      reports: [
        ...goingDown.reports,
        report({ by: "visitor", state: "possibly_delivered", reason: "http", at: T + 5_020 }),
      ],
    };
    expect(rules(resentAfterDown)).toEqual(["delivered or held"]);
    // Recorded more than half a lease after its call (the database paused), or its caller frozen
    // meanwhile: another instance's expiry of its lease may have held it first, rightly.
    const late = {
      ...held,
      reports: [report({ state: "possibly_delivered", at: T + 4_000 })],
      leaseMs: 6_500,
    };
    expect(rules(late)).toEqual(["delivered or held"]);
    expect(rules({ ...late, leaseMs: 9_000 })).toEqual(["held only when unsure", "delivered or held"]);
    const frozen = { ...held, events: [{ at: T + 10, what: "SIGSTOP pg-a.1 for 8000 ms" }] };
    expect(rules(frozen)).toEqual(["delivered or held"]);
    // Held so, then a person's resend failed for sure: it stays held.
    const resentAfterFrozen = {
      ...frozen,
      calls: [failed, { ...failed, by: "visitor" as const, arrivedAt: T + 9_000, endedAt: T + 9_010 }],
      reports: [
        ...frozen.reports,
        report({ by: "visitor", state: "possibly_delivered", reason: "http", at: T + 9_020 }),
      ],
    };
    expect(rules(resentAfterFrozen)).toEqual(["delivered or held"]);
    // A person's resend of a held lead that failed for sure leaves it held, as it should.
    const resent = history({
      calls: [
        call({ plan: "ran-504", status: 504 }),
        { ...failed, by: "visitor", arrivedAt: T + 2_000, endedAt: T + 2_010 },
      ],
      reports: [
        report({ state: "possibly_delivered" }),
        report({ by: "visitor", state: "possibly_delivered", at: T + 2_020 }),
      ],
      final: {
        leads: [row({ state: "possibly_delivered" })],
        listOutput: listOf(row({ state: "possibly_delivered" })),
      },
    });
    expect(check(resent)).toEqual([]);
  });

  it("two calls in flight at once are caught, unless the first caller was paused past its lease and both carry the lead's key (decision 044)", () => {
    // pg-a.1's call hangs while pg-a.1 is frozen; a visitor's resend at pg-b.1 calls meanwhile.
    const frozen = call({ plan: "hang", status: 0, answered: false, endedAt: T + 9_000 });
    const resend = call({ caller: "pg-b.1", by: "visitor", arrivedAt: T + 7_000, endedAt: T + 7_020 });
    const base = {
      calls: [frozen, resend],
      reports: [report({ caller: "pg-b.1", at: T + 7_030, by: "visitor" as const })],
      visitors: [visitor({ slot: "pg-b", sentAt: T + 6_990, endedAt: T + 7_040 })],
    };
    const pause = { at: T + 100, what: "SIGSTOP pg-a.1 for 8000 ms (a call under way)" };
    expect(rules(history(base))).toEqual(["one call in flight"]);
    expect(rules(history({ ...base, events: [pause] }))).toEqual([]);
    // Another instance's pause excuses nothing.
    expect(rules(history({ ...base, events: [{ ...pause, what: "SIGSTOP pg-c.1 for 8000 ms" }] }))).toEqual([
      "one call in flight",
    ]);
  });

  it("a lead forgotten while the faults ran: gone from the end's rules, and a call of it after its forget is caught, unless it was posted again since (issue 40)", () => {
    const during = { from: T + 1_000, to: T + 1_500, lead: `${EMAIL} | ${MESSAGE}` };
    const gone = { address: "ADA@EXAMPLE.COM", during, files: [], rows: [] };
    // Its call in flight when it was forgotten: fine; no row at the end: as asked.
    const inFlight = history({
      calls: [call({ plan: "hang", status: 0, answered: false, endedAt: T + 2_000 })],
      final: { leads: [], listOutput: "" },
      forgotten: [gone],
    });
    expect(rules(inFlight)).toEqual([]);
    // A dispatcher calling it afterwards.
    const after = history({
      calls: [
        call({ plan: "fail", status: 503 }),
        call({ caller: "pg-b.1", arrivedAt: T + 3_000, endedAt: T + 3_020 }),
      ],
      reports: [report({ state: "pending" }), report({ caller: "pg-b.1", at: T + 3_030 })],
      final: { leads: [], listOutput: "" },
      forgotten: [gone],
    });
    expect(rules(after)).toEqual(["forgotten is never called"]);
    // While the command runs (before its end), an attempt may still take the lead.
    const whileRunning = {
      ...after,
      calls: [after.calls[0]!, { ...after.calls[1]!, arrivedAt: T + 1_200, endedAt: T + 1_220 }],
      reports: [report({ state: "pending" }), report({ caller: "pg-b.1", at: T + 1_230 })],
    };
    expect(rules(whileRunning)).toEqual([]);
    // An attempt begun before the forget may call within its lease; past it, nothing may.
    expect(rules({ ...after, leaseMs: 2_000 })).toEqual([]);
    expect(rules({ ...after, leaseMs: 1_000 })).toEqual(["forgotten is never called"]);
    // Posted again after the forget began: a new lead, rightly called and stored.
    const postedAgain = {
      ...after,
      visitors: [visitor({ slot: "pg-b", sentAt: T + 900, endedAt: T + 3_040 })],
    };
    expect(rules(postedAgain)).not.toContain("forgotten is never called");
    // A copy left behind is still caught.
    expect(
      rules(history({ ...inFlight, forgotten: [{ ...gone, files: ["/tmp/x/leads.sqlite-wal"] }] })),
    ).toEqual(["forget leaves nothing"]);
  });

  it("catches an address forget left in a file or a row", () => {
    const input = history({
      calls: [call()],
      reports: [report()],
      forgotten: [{ address: "ADA@EXAMPLE.COM", files: ["/tmp/x/leads.sqlite-wal"], rows: [] }],
    });
    expect(rules(input)).toEqual(["forget leaves nothing"]);
  });

  it("says the seed and how to replay it, with the history of each violation", () => {
    const input = history({
      calls: [
        call({ plan: "garbage" }),
        call({ caller: "pg-b.1", arrivedAt: T + 2_000, endedAt: T + 2_010 }),
      ],
    });
    const text = formatViolations(
      input,
      check(input),
      "HISTORY_SEED=4242 npx vitest run test/ops/history-sqlite.test.ts",
    );
    expect(text).toContain("seed 4242 (replay: HISTORY_SEED=4242");
    expect(text).toMatch(/call #\d+ from pg-b\.1 \(dispatcher\)/);
  });
});
