import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { sql } from "kysely";
import { afterEach, beforeEach, expect, it, vi } from "vitest";

import type { ContactRequest } from "~/lib/contact/schema";
import { type OpenDatabase, openDatabase } from "~/lib/leads/database.server";
import { attemptDelivery } from "~/lib/leads/delivery.server";
import {
  fromStates,
  type LeadState,
  leadStates,
  TRANSITIONS,
  type TransitionName,
} from "~/lib/leads/lead-states";
import type { ContactSink } from "~/lib/leads/sink.server";
import {
  type Claim,
  createLeadStore,
  DUPLICATE_WINDOW_MS,
  type LeadStore,
  StoreUnavailableError,
} from "~/lib/leads/store.server";
import { contactRequest } from "../../support/contact-request";

/**
 * The lead store's behaviour, the same on both engines (test/lib/leads/store-*.test.ts run it on
 * a real SQLite file and a real PostgreSQL server). "Two instances" are two stores with their own
 * connections to one database, as two servers have.
 */

export const request = (overrides: Partial<ContactRequest> = {}): ContactRequest =>
  contactRequest({
    name: "Ada Lovelace",
    email: "ada@example.com",
    phone: "+44 20 7946 0000",
    company: "Analytical Engines",
    message: "Please automate our invoices, they take days.",
    ...overrides,
  });

const allow = async () => ({ allowed: true as const });
const retry = { initialMs: 30_000, maxMs: 3_600_000, maxAttempts: 3 };

export interface Engine {
  fresh(): Promise<{ databaseUrl?: string; file: string }>;
  /**
   * Whether one process may open the database twice. Not SQLite: better-sqlite3 waits for the file's
   * lock synchronously, so a second connection in the same process would wait on the first forever;
   * "another instance" is then the same store, whose connection serializes every transaction.
   */
  severalInstances: boolean;
}

export function sqliteEngine(): Engine {
  return {
    fresh: async () => ({ file: join(mkdtempSync(join(tmpdir(), "store-")), "leads.sqlite") }),
    severalInstances: false,
  };
}

export function storeContract(engine: Engine) {
  let config: { databaseUrl?: string; file: string };
  let clock: number;
  const opened: { store: LeadStore; database: OpenDatabase }[] = [];

  const instance = async (options: { leaseMs?: number; databaseClock?: boolean } = {}) => {
    if (!engine.severalInstances && opened[0]) return opened[0].store;
    const database = openDatabase(config);
    const store = createLeadStore({
      database,
      leaseMs: options.leaseMs ?? 15_000,
      retry,
      // The test's clock, except where the test is about the database's own.
      ...(options.databaseClock ? {} : { now: () => clock }),
      random: () => 0.5,
      log: () => undefined,
    });
    opened.push({ store, database });
    expect((await store.start()).state).toBe("ready");
    return store;
  };

  beforeEach(async () => {
    config = await engine.fresh();
    clock = Date.UTC(2026, 10, 25, 12);
  });
  afterEach(async () => {
    vi.useRealTimers();
    for (const { store } of opened.splice(0)) await store.close();
  });

  // The state table: each transition runs on a lead in every state, the rest of the row set so that
  // only its state can stop it (a lease token every claim would match, a live lease, due now,
  // delivered and received long ago).
  const TOKEN = "the-claim's-token";
  const drivers: Record<
    Exclude<TransitionName, "admit">,
    {
      /** Set on the row besides its state (times relative to the test clock). */
      prepare?: (now: number) => Record<string, number>;
      run: (store: LeadStore, lead: { id: string; email: string; claim: Claim }) => Promise<unknown>;
    }
  > = {
    resend: {
      run: (store, lead) => store.admit(request({ email: lead.email }), { mode: "function", allow }),
    },
    beginCall: { run: (store, lead) => store.beginCall(lead.claim) },
    recordConfirmed: { run: (store, lead) => store.recordOutcome(lead.claim, { ok: true }) },
    recordFailure: {
      run: (store, lead) => store.recordOutcome(lead.claim, { ok: false, reason: "http", status: 503 }),
    },
    releaseUncalled: { run: (store, lead) => store.releaseUncalled(lead.claim) },
    expireLeases: { prepare: (now) => ({ leaseUntil: now - 1 }), run: (store) => store.expireLeases() },
    dispatch: { run: (store) => store.claimDue(10) },
    retry: { run: (store, lead) => store.claimIfIn(lead.id, fromStates("retry")) },
    releaseSpam: { run: (store, lead) => store.releaseSpam(lead.id, "inbox") },
    resolve: { run: (store, lead) => store.resolve(lead.id) },
    retention: { run: (store) => store.eraseExpired({ delivered: 0, undelivered: 1e6, spam: 1e6 }) },
    eraseUndelivered: { run: (store) => store.eraseExpired({ delivered: 1e6, undelivered: 0, spam: 1e6 }) },
    eraseSpam: { run: (store) => store.eraseExpired({ delivered: 1e6, undelivered: 1e6, spam: 0 }) },
    forget: { run: (store, lead) => store.forget(lead.email) },
  };

  for (const [name, driver] of Object.entries(drivers) as [
    keyof typeof drivers,
    (typeof drivers)[keyof typeof drivers],
  ][])
    it(`the state table's ${name}: it changes a lead exactly in the states it may start from (${TRANSITIONS[name].from.join(", ")})`, async () => {
      const store = await instance();
      const { db } = opened[0]!.database;
      const rowOf = async (id: string) =>
        (await db.selectFrom("leads").selectAll().where("id", "=", id).executeTakeFirst()) ?? "erased";
      const changedIn: LeadState[] = [];
      for (const state of leadStates) {
        const email = `${name}.${state}@example.com`;
        const admission = await store.admit(request({ email }), { mode: "function", allow });
        if (admission.kind !== "claimed") throw new Error(admission.kind);
        const { id } = admission.claim.lead;
        clock += 1_000;
        await db
          .updateTable("leads")
          .set({
            state,
            leaseToken: TOKEN,
            leaseUntil: clock + 60_000,
            nextAttemptAt: clock - 1,
            receivedAt: clock - 1,
            deliveredAt: clock - 1,
            ...driver.prepare?.(clock),
          })
          .where("id", "=", id)
          .execute();
        const before = await rowOf(id);
        await driver.run(store, {
          id,
          email,
          claim: { lead: { ...admission.claim.lead, state }, token: TOKEN },
        });
        if (JSON.stringify(await rowOf(id)) !== JSON.stringify(before)) changedIn.push(state);
        // Out of the way of the next state's lead (claimDue and the erasures take every match).
        await db.deleteFrom("leads").where("id", "=", id).execute();
      }
      expect(changedIn).toEqual(leadStates.filter((state) => fromStates(name).includes(state)));
    });

  it("a new lead is committed as being sent, with one attempt, before any call", async () => {
    const store = await instance();
    const admission = await store.admit(request(), { mode: "function", requestId: "r1", allow });
    expect(admission.kind).toBe("claimed");
    if (admission.kind !== "claimed") return;
    expect(admission.claim.lead).toMatchObject({ state: "sending", attempts: 1, requestId: "r1" });
    expect(admission.claim.lead.id).toMatch(/^[0-9a-f-]{36}$/);
    const [row] = await store.list(["sending"]);
    expect(row?.request).toEqual(request());
  });

  it("delivered: an identical post within 10 minutes is a duplicate (e-mail in any case), after them a new lead", async () => {
    const store = await instance();
    const first = await store.admit(request(), { mode: "function", allow });
    if (first.kind !== "claimed") throw new Error(first.kind);
    expect(await store.recordOutcome(first.claim, { ok: true })).toBe("delivered");
    clock += DUPLICATE_WINDOW_MS - 1_000;
    expect((await store.admit(request({ email: "ADA@Example.com" }), { mode: "function", allow })).kind).toBe(
      "duplicate",
    );
    expect(
      (await store.admit(request({ message: "Another question entirely." }), { mode: "function", allow }))
        .kind,
    ).toBe("claimed");
    clock += 2_000;
    expect((await store.admit(request(), { mode: "function", allow })).kind).toBe("claimed");
  });

  it("a sure failure is pending with backoff; the visitor's resend is the same lead's next attempt (one row)", async () => {
    const store = await instance();
    const first = await store.admit(request(), { mode: "function", allow });
    if (first.kind !== "claimed") throw new Error(first.kind);
    expect(await store.recordOutcome(first.claim, { ok: false, reason: "http", status: 500 })).toBe(
      "pending",
    );
    const [pending] = await store.list(["pending"]);
    // Equal jitter with random() = 0.5: three quarters of the first delay.
    expect(pending).toMatchObject({
      attempts: 1,
      lastReason: "http",
      lastStatus: 500,
      nextAttemptAt: clock + 22_500,
    });
    const again = await store.admit(request({ phone: "+44 20 7946 0001" }), { mode: "function", allow });
    if (again.kind !== "claimed") throw new Error(again.kind);
    expect(again.claim.lead).toMatchObject({ id: first.claim.lead.id, attempts: 2, state: "sending" });
    expect(again.claim.lead.request.phone).toBe("+44 20 7946 0001");
    expect(
      await store.list(["sending", "pending", "delivered", "inbox", "dead", "possibly_delivered"]),
    ).toHaveLength(1);
  });

  it("the last allowed sure failure makes the lead dead; an unknown outcome makes it possibly delivered", async () => {
    const store = await instance();
    let admission = await store.admit(request(), { mode: "function", allow });
    for (let attempt = 1; attempt <= retry.maxAttempts; attempt++) {
      if (admission.kind !== "claimed") throw new Error(admission.kind);
      const state = await store.recordOutcome(admission.claim, { ok: false, reason: "network" });
      expect(state).toBe(attempt < retry.maxAttempts ? "pending" : "dead");
      admission = await store.admit(request(), { mode: "function", allow });
    }
    const other = await store.admit(request({ email: "grace@example.com" }), { mode: "function", allow });
    if (other.kind !== "claimed") throw new Error(other.kind);
    expect(
      await store.recordOutcome(other.claim, { ok: false, reason: "timeout", possiblyDelivered: true }),
    ).toBe("possibly_delivered");
    clock += 10 * 3_600_000;
    expect(await store.claimDue(10)).toEqual([]);
  });

  it("identical posts to two instances at once: one is sent, every other waits for it and shares its outcome", async () => {
    const a = await instance();
    const b = await instance();
    const admissions = await Promise.all(
      Array.from({ length: 12 }, (_, index) =>
        (index % 2 ? a : b).admit(request(), { mode: "function", allow }),
      ),
    );
    const claimed = admissions.filter((admission) => admission.kind === "claimed");
    expect(claimed).toHaveLength(1);
    expect(admissions.filter((admission) => admission.kind === "in-flight")).toHaveLength(11);
    const waiting = admissions.find((admission) => admission.kind === "in-flight");
    if (waiting?.kind !== "in-flight" || claimed[0]?.kind !== "claimed") throw new Error("no claim");
    const outcome = b.awaitOutcome(waiting.id, 5_000, 20);
    await a.recordOutcome(claimed[0].claim, { ok: true });
    expect(await outcome).toBe("delivered");
  });

  it("due pending leads are claimed by one instance each, never both", async () => {
    const a = await instance();
    const b = await instance();
    for (let index = 0; index < 8; index++) {
      const admission = await a.admit(request({ email: `lead${index}@example.com` }), {
        mode: "function",
        allow,
      });
      if (admission.kind !== "claimed") throw new Error(admission.kind);
      await a.recordOutcome(admission.claim, { ok: false, reason: "http", status: 503 });
    }
    expect(await a.claimDue(10)).toEqual([]);
    clock += 60_000;
    const [fromA, fromB] = await Promise.all([a.claimDue(5), b.claimDue(5)]);
    const ids = [...fromA, ...fromB].map((claim) => claim.lead.id);
    expect(ids).toHaveLength(8);
    expect(new Set(ids).size).toBe(8);
    expect([...fromA, ...fromB].every((claim) => claim.lead.attempts === 2)).toBe(true);
  });

  it("a visitor's resend racing the dispatchers and a person's retry: exactly one of them takes the lead (issue 33)", async () => {
    const a = await instance();
    const b = await instance();
    const c = await instance();
    for (let round = 0; round < 20; round++) {
      const lead = request({ email: `race${round}@example.com` });
      const first = await a.admit(lead, { mode: "function", allow });
      if (first.kind !== "claimed") throw new Error(first.kind);
      await a.recordOutcome(first.claim, { ok: false, reason: "http", status: 503 });
      clock += 3_600_000; // due for the dispatchers
      const id = first.claim.lead.id;
      // Everything that can start an attempt, at once, from three instances, in a varying order.
      const attempts: Promise<number>[] = [
        b
          .admit(lead, { mode: "function", allow })
          .then((admission) => (admission.kind === "claimed" ? 1 : 0)),
        c.claimDue(10).then((claims) => claims.filter((claim) => claim.lead.id === id).length),
        a.claimDue(10).then((claims) => claims.filter((claim) => claim.lead.id === id).length),
        c.claimIfIn(id, ["pending", "dead"]).then((claim) => (claim ? 1 : 0)),
        a
          .admit(lead, { mode: "function", allow })
          .then((admission) => (admission.kind === "claimed" ? 1 : 0)),
      ];
      const order = [...attempts.keys()].sort(() => (round % 3) - 1);
      const taken = await Promise.all(order.map((index) => attempts[index]!));
      expect(
        taken.reduce((sum, count) => sum + count, 0),
        `round ${round}`,
      ).toBe(1);
      const row = await a.get(id);
      expect(row).toMatchObject({ state: "sending", attempts: 2 });
    }
  });

  it("an attempt whose lease ran out mid-call (its process died) is held as possibly delivered, not resent", async () => {
    const store = await instance({ leaseMs: 1_000 });
    const admission = await store.admit(request(), { mode: "function", allow });
    if (admission.kind !== "claimed") throw new Error(admission.kind);
    expect(await store.beginCall(admission.claim)).toBe(true);
    expect(await store.expireLeases()).toEqual({ held: [], returned: [] });
    clock += 1_001;
    expect(await store.expireLeases()).toEqual({ held: [admission.claim.lead.id], returned: [] });
    expect((await store.get(admission.claim.lead.id))?.state).toBe("possibly_delivered");
    clock += 3_600_000;
    expect(await store.claimDue(10)).toEqual([]);
    // The late confirmation of the dead process's call would still be the truth.
    expect(await store.recordOutcome(admission.claim, { ok: true })).toBe("delivered");
  });

  it("an attempt whose lease ran out before its call began goes back to pending, due now, its attempt uncounted; its late holder may not call (issue 33)", async () => {
    const store = await instance({ leaseMs: 1_000 });
    const admission = await store.admit(request(), { mode: "function", allow });
    if (admission.kind !== "claimed") throw new Error(admission.kind);
    clock += 1_001;
    expect(await store.beginCall(admission.claim)).toBe(false);
    expect(await store.expireLeases()).toEqual({ held: [], returned: [admission.claim.lead.id] });
    expect(await store.get(admission.claim.lead.id)).toMatchObject({
      state: "pending",
      attempts: 0,
      nextAttemptAt: clock,
      callStartedAt: null,
    });
    // The dispatcher sends it, under the lead's one key; the stale claim still may not call.
    const [claim] = await store.claimDue(10);
    expect(claim?.lead).toMatchObject({ id: admission.claim.lead.id, attempts: 1 });
    expect(await store.beginCall(admission.claim)).toBe(false);
    expect(await store.beginCall(claim!)).toBe(true);
  });

  it("a lead whose holder died mid-call, resent before any dispatcher swept its lease, stays marked: held, never pending, if the resend never calls (review of issue 33)", async () => {
    const store = await instance({ leaseMs: 1_000 });
    const first = await store.admit(request(), { mode: "function", allow });
    if (first.kind !== "claimed") throw new Error(first.kind);
    expect(await store.beginCall(first.claim)).toBe(true);
    clock += 1_001; // its process died mid-call; no expiry has run
    const resend = await store.admit(request(), { mode: "function", allow });
    if (resend.kind !== "claimed") throw new Error(resend.kind);
    expect(resend.claim.lead.callStartedAt).not.toBeNull();
    clock += 1_001; // the resend's instance died before its call
    expect(await store.expireLeases()).toEqual({ held: [first.claim.lead.id], returned: [] });
    clock += 3_600_000;
    expect(await store.claimDue(10)).toEqual([]);
  });

  it("a call begins with a whole lease however long its claim waited: no other attempt takes the lead mid-call (review of issue 33)", async () => {
    const store = await instance({ leaseMs: 1_000 });
    const admission = await store.admit(request(), { mode: "function", allow });
    if (admission.kind !== "claimed") throw new Error(admission.kind);
    clock += 900; // the claim waited on a slow store
    expect(await store.beginCall(admission.claim)).toBe(true);
    clock += 500; // past the claim's lease, within the call's
    expect(await store.expireLeases()).toEqual({ held: [], returned: [] });
    expect((await store.admit(request(), { mode: "function", allow })).kind).toBe("in-flight");
    expect(
      await store.claimIfIn(admission.claim.lead.id, ["pending", "dead", "possibly_delivered"]),
    ).toBeUndefined();
    expect(await store.recordOutcome(admission.claim, { ok: true })).toBe("delivered");
  });

  it("a claim that never called is handed back as it was, even when the store committed its beginCall late and expiry held the lead meanwhile; a stale hand-back undoes no later claim", async () => {
    const store = await instance({ leaseMs: 1_000 });
    const admission = await store.admit(request(), { mode: "function", allow });
    if (admission.kind !== "claimed") throw new Error(admission.kind);
    const { id } = admission.claim.lead;
    // A paused server ran the beginCall its client gave up on, or answered it too late to call.
    expect(await store.beginCall(admission.claim)).toBe(true);
    clock += 1_001; // expiry cannot know that no call followed
    expect(await store.expireLeases()).toEqual({ held: [id], returned: [] });
    expect(await store.releaseUncalled(admission.claim)).toBe(true);
    const handedBack = { state: "pending", attempts: 0, nextAttemptAt: clock, callStartedAt: null };
    expect(await store.get(id)).toMatchObject({ ...handedBack, leaseUntil: null, lastReason: null });
    // A beginCall that commits after the hand-back matches nothing: its token is gone.
    expect(await store.beginCall(admission.claim)).toBe(false);
    const [next] = await store.claimDue(10);
    expect(next?.lead).toMatchObject({ id, attempts: 1 });
    expect(await store.beginCall(next!)).toBe(true);
    expect(await store.releaseUncalled(admission.claim)).toBe(false);
    // next froze past its lease too, and a visitor's resend took the lead before next's hand-back.
    clock += 1_001;
    expect(await store.expireLeases()).toEqual({ held: [id], returned: [] });
    const resend = await store.admit(request(), { mode: "function", allow });
    if (resend.kind !== "claimed") throw new Error(resend.kind);
    expect(await store.releaseUncalled(next!)).toBe(false);
    // The resend of the held lead never called either: held again.
    expect(await store.releaseUncalled(resend.claim)).toBe(true);
    expect(await store.get(id)).toMatchObject({ state: "possibly_delivered", attempts: 1 });
    clock += 3_600_000;
    expect(await store.claimDue(10)).toEqual([]);
  });

  it("an attempt whose beginCall fails never calls, and hands the lead back: the dispatcher sends it later under its one key", async () => {
    const store = await instance();
    const admission = await store.admit(request(), { mode: "function", allow });
    if (admission.kind !== "claimed") throw new Error(admission.kind);
    const calls: string[] = [];
    const sink: ContactSink = {
      mode: "supabase",
      send: async (_request, { idempotencyKey }) => {
        calls.push(idempotencyKey);
        return { ok: true };
      },
    };
    // The store committed the beginCall, but its answer was lost (a query timeout).
    const lostAnswer: LeadStore = {
      ...store,
      beginCall: async (claim) => {
        await store.beginCall(claim);
        throw new StoreUnavailableError("query timeout");
      },
    };
    const attempt = await attemptDelivery({ store: lostAnswer, sink }, admission.claim, "visitor");
    expect(attempt).toMatchObject({ called: false, state: "unknown" });
    expect(calls).toEqual([]);
    await vi.waitFor(async () => expect((await store.get(admission.claim.lead.id))?.state).toBe("pending"));
    const [claim] = await store.claimDue(10);
    expect((await attemptDelivery({ store, sink }, claim!, "dispatcher")).state).toBe("delivered");
    expect(calls).toEqual([admission.claim.lead.id]);
  });

  it("closing the store (the CLI's end, a SIGTERM) waits for an uncalled claim's hand-back: the lead is never left leased (issue 40)", async () => {
    const store = await instance();
    const admission = await store.admit(request(), { mode: "function", allow });
    if (admission.kind !== "claimed") throw new Error(admission.kind);
    const sink: ContactSink = { mode: "supabase", send: async () => ({ ok: true }) };
    const lostAnswer: LeadStore = {
      ...store,
      beginCall: async (claim) => {
        await store.beginCall(claim);
        throw new StoreUnavailableError("query timeout");
      },
    };
    expect((await attemptDelivery({ store: lostAnswer, sink }, admission.claim, "cli")).called).toBe(false);
    // At once, as the CLI does when its command ends.
    opened.splice(
      opened.findIndex((entry) => entry.store === store),
      1,
    );
    await store.close();
    const database = openDatabase(config);
    const reopened = createLeadStore({
      database,
      leaseMs: 15_000,
      retry,
      log: () => undefined,
    });
    opened.push({ store: reopened, database });
    expect((await reopened.start()).state).toBe("ready");
    expect(await reopened.get(admission.claim.lead.id)).toMatchObject({ state: "pending", leaseUntil: null });
  });

  it("a possibly delivered lead resent by a visitor whose attempt never called goes back to being held, never to pending (history test, seed 9001)", async () => {
    const store = await instance({ leaseMs: 1_000 });
    const first = await store.admit(request(), { mode: "function", allow });
    if (first.kind !== "claimed") throw new Error(first.kind);
    expect(await store.beginCall(first.claim)).toBe(true);
    expect(
      await store.recordOutcome(first.claim, { ok: false, reason: "timeout", possiblyDelivered: true }),
    ).toBe("possibly_delivered");
    // The visitor sends it again; their instance dies before its call begins.
    const resend = await store.admit(request(), { mode: "function", allow });
    if (resend.kind !== "claimed") throw new Error(resend.kind);
    clock += 1_001;
    expect(await store.expireLeases()).toEqual({ held: [first.claim.lead.id], returned: [] });
    expect((await store.get(first.claim.lead.id))?.state).toBe("possibly_delivered");
    clock += 3_600_000;
    expect(await store.claimDue(10)).toEqual([]);
  });

  it("an instance whose own clock runs 20 s ahead takes no live lease: leases are measured by the database's clock (issue 33)", async () => {
    const sender = await instance({ databaseClock: true });
    const ahead = await instance({ databaseClock: true });
    const admitted = await sender.admit(request(), { mode: "function", allow });
    if (admitted.kind !== "claimed") throw new Error(admitted.kind);
    // The lease runs from the database's now: within a few seconds of this machine's real time.
    expect(Math.abs(admitted.claim.lead.leaseUntil! - 15_000 - Date.now())).toBeLessThan(5_000);

    // This process's clock (every Date.now() in it) 20 s ahead, past the 15 s lease; the
    // database's (the server's, or SQLite's unixepoch on its own thread) is not moved.
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 20_000);
    expect(await ahead.expireLeases()).toEqual({ held: [], returned: [] });
    expect(await ahead.claimDue(10)).toEqual([]);
    expect((await ahead.admit(request(), { mode: "function", allow })).kind).toBe("in-flight");
    expect(await sender.recordOutcome(admitted.claim, { ok: true })).toBe("delivered");
  });

  it("a refused limit adds nothing; a duplicate is never counted", async () => {
    const store = await instance();
    let asked = 0;
    const refuse = async () => {
      asked++;
      return { allowed: false as const, scope: "client" as const, retryAfterSeconds: 42 };
    };
    expect(await store.admit(request(), { mode: "function", allow: refuse })).toEqual({
      kind: "limited",
      limit: { allowed: false, scope: "client", retryAfterSeconds: 42 },
    });
    expect(await store.list(["sending", "pending", "inbox"])).toEqual([]);
    const first = await store.admit(request(), { mode: "inbox", allow });
    expect(first.kind).toBe("stored");
    asked = 0;
    expect((await store.admit(request(), { mode: "inbox", allow: refuse })).kind).toBe("duplicate");
    expect(asked).toBe(0);
  });

  it("inbox leads, counts, and the oldest pending and undelivered leads' ages", async () => {
    const store = await instance();
    await store.admit(request(), { mode: "inbox", allow });
    const held = await store.admit(request({ email: "alan@example.com" }), { mode: "function", allow });
    if (held.kind !== "claimed") throw new Error(held.kind);
    await store.recordOutcome(held.claim, { ok: false, reason: "timeout", possiblyDelivered: true });
    clock += 30_000;
    const failing = await store.admit(request({ email: "grace@example.com" }), { mode: "function", allow });
    if (failing.kind !== "claimed") throw new Error(failing.kind);
    await store.recordOutcome(failing.claim, { ok: false, reason: "relay", status: 502 });
    clock += 90_000;
    expect(await store.counts()).toEqual({
      pending: 1,
      possiblyDelivered: 1,
      dead: 0,
      sending: 0,
      inbox: 1,
      spam: 0,
      oldestPendingAgeSeconds: 90,
      oldestUndeliveredAgeSeconds: 120,
    });
  });

  it("forget erases every lead of an address in any case and any state, and says how many", async () => {
    const store = await instance();
    await store.admit(request(), { mode: "inbox", allow });
    const sent = await store.admit(request({ email: "Ada@Example.com", message: "Second question." }), {
      mode: "function",
      allow,
    });
    if (sent.kind !== "claimed") throw new Error(sent.kind);
    await store.admit(request({ email: "grace@example.com" }), { mode: "inbox", allow });
    expect(await store.forget(" ADA@example.com ")).toEqual({ erased: 2, copiesGone: true });
    expect((await store.list(["inbox", "sending"])).map((lead) => lead.request?.email)).toEqual([
      "grace@example.com",
    ]);
    expect(await store.forget("nobody@example.com")).toEqual({ erased: 0, copiesGone: true });
  });

  it("retention bounds every state: the personal fields of delivered and inbox leads after their days (the row stays); pending, dead and held leads, and spam, row and all", async () => {
    const store = await instance();
    const days = { delivered: 90, undelivered: 180, spam: 30 };
    const claimed = async (email: string) => {
      const admission = await store.admit(request({ email }), { mode: "function", allow });
      if (admission.kind !== "claimed") throw new Error(admission.kind);
      return admission.claim;
    };
    const delivered = await claimed("delivered@example.com");
    await store.recordOutcome(delivered, { ok: true });
    await store.admit(request({ email: "inbox@example.com" }), { mode: "inbox", allow });
    await store.recordOutcome(await claimed("pending@example.com"), {
      ok: false,
      reason: "http",
      status: 503,
    });
    await store.recordOutcome(await claimed("held@example.com"), {
      ok: false,
      reason: "timeout",
      possiblyDelivered: true,
    });
    await store.admit(request({ email: "spam@example.com" }), {
      mode: "function",
      allow,
      spam: ["honeypot"],
    });
    clock += 31 * 86_400_000;
    expect(await store.eraseExpired(days)).toEqual({
      delivered: 0,
      undelivered: 0,
      spam: 1,
      erased: 1,
      copiesGone: true,
    });
    clock += 60 * 86_400_000;
    const recent = await claimed("recent@example.com");
    await store.recordOutcome(recent, { ok: true });
    expect(await store.eraseExpired(days)).toMatchObject({ delivered: 2, undelivered: 0, spam: 0 });
    const erased = await store.get(delivered.lead.id);
    expect(erased).toMatchObject({ state: "delivered", erasedAt: clock });
    expect(erased?.request).toBeNull();
    expect((await store.list(["inbox"]))[0]?.request).toBeNull();
    expect((await store.get(recent.lead.id))?.request?.email).toBe("recent@example.com");
    expect(
      (await store.list(["pending", "possibly_delivered"])).map((lead) => lead.request?.email).sort(),
    ).toEqual(["held@example.com", "pending@example.com"]);
    clock += 90 * 86_400_000;
    expect(await store.eraseExpired(days)).toMatchObject({ delivered: 0, undelivered: 2, spam: 0 });
    expect(await store.list(["pending", "possibly_delivered"])).toEqual([]);
    expect(await store.eraseExpired(days)).toEqual({
      delivered: 0,
      undelivered: 0,
      spam: 0,
      erased: 0,
      copiesGone: true,
    });
  });

  it("spam is kept, never an attempt: not joined to an open lead, a duplicate only of spam, counted, listed, erased after its days (issue 41)", async () => {
    const store = await instance();
    const spam = ["honeypot"];
    const kept = await store.admit(request(), { mode: "function", allow, spam });
    expect(kept.kind).toBe("stored");
    if (kept.kind !== "stored") return;
    expect(await store.get(kept.id)).toMatchObject({ state: "spam", attempts: 0, spamSignals: ["honeypot"] });
    // The same submission again (a double click): one copy.
    expect((await store.admit(request(), { mode: "function", allow, spam })).kind).toBe("duplicate");
    // The same person without the signals: a lead like any other, sent.
    const real = await store.admit(request(), { mode: "function", allow });
    expect(real.kind).toBe("claimed");
    if (real.kind !== "claimed") return;
    await store.recordOutcome(real.claim, { ok: false, reason: "http", status: 503 });
    // Spam identical to an open (pending) lead never becomes its attempt.
    clock += DUPLICATE_WINDOW_MS + 1_000;
    const again = await store.admit(request(), { mode: "function", allow, spam: ["links", "markup"] });
    expect(again.kind).toBe("stored");
    expect((await store.get(real.claim.lead.id))?.state).toBe("pending");
    expect((await store.counts()).spam).toBe(2);
    expect((await store.spamMatching(" ADA@example.COM ")).map((lead) => lead.id)).toEqual([
      kept.id,
      again.kind === "stored" ? again.id : "",
    ]);
    expect((await store.spamMatching(kept.id)).map((lead) => lead.id)).toEqual([kept.id]);
    // A refused limit keeps nothing.
    const refused = await store.admit(request({ email: "bot@example.com" }), {
      mode: "function",
      spam,
      allow: async () => ({ allowed: false as const, retryAfterSeconds: 60, scope: "global" as const }),
    });
    expect(refused.kind).toBe("limited");
    clock += 30 * 86_400_000 - DUPLICATE_WINDOW_MS;
    expect(await store.eraseExpired({ delivered: 1e6, undelivered: 1e6, spam: 30 })).toMatchObject({
      spam: 1,
      erased: 1,
    });
    expect((await store.list(["spam"])).map((lead) => lead.id)).toEqual([
      again.kind === "stored" ? again.id : "",
    ]);
    expect((await store.get(real.claim.lead.id))?.state).toBe("pending");
  });

  it("release: one claim under the lead's own key, exactly once however often (and from however many instances) it runs (issue 41)", async () => {
    const a = await instance();
    const b = await instance();
    const kept = await a.admit(request(), { mode: "function", allow, spam: ["honeypot"] });
    if (kept.kind !== "stored") throw new Error(kept.kind);
    const releases = await Promise.all(
      Array.from({ length: 6 }, (_, index) => (index % 2 ? a : b).releaseSpam(kept.id, "function")),
    );
    const claimed = releases.filter((release) => release.kind === "claimed");
    expect(claimed).toHaveLength(1);
    expect(releases.filter((release) => release.kind === "not-spam")).toHaveLength(5);
    if (claimed[0]?.kind !== "claimed") throw new Error("no claim");
    expect(claimed[0].claim.lead).toMatchObject({ id: kept.id, state: "sending", attempts: 1 });
    const calls: string[] = [];
    const sink: ContactSink = {
      mode: "supabase",
      send: async (_request, { idempotencyKey }) => (calls.push(idempotencyKey), { ok: true }),
    };
    const attempt = await attemptDelivery({ store: a, sink }, claimed[0].claim, "cli");
    expect(attempt).toMatchObject({ called: true, state: "delivered" });
    expect(calls).toEqual([kept.id]);
    expect((await b.releaseSpam(kept.id, "function")).kind).toBe("not-spam");
    expect(await a.spamMatching("ada@example.com")).toEqual([]);
    // Without a function the released lead joins the inbox; an unknown id releases nothing.
    const inbox = await a.admit(request({ email: "grace@example.com" }), {
      mode: "inbox",
      allow,
      spam: ["honeypot"],
    });
    if (inbox.kind !== "stored") throw new Error(inbox.kind);
    expect((await a.releaseSpam(inbox.id, "inbox")).kind).toBe("inbox");
    expect((await a.get(inbox.id))?.state).toBe("inbox");
    expect((await a.releaseSpam("no-such-id", "function")).kind).toBe("not-spam");
  });

  it("release of spam whose twin is still being delivered leaves it held: never a second open lead (issue 41)", async () => {
    const store = await instance();
    const kept = await store.admit(request(), { mode: "function", allow, spam: ["honeypot"] });
    if (kept.kind !== "stored") throw new Error(kept.kind);
    const real = await store.admit(request(), { mode: "function", allow });
    if (real.kind !== "claimed") throw new Error(real.kind);
    await store.recordOutcome(real.claim, { ok: false, reason: "http", status: 503 });
    expect(await store.releaseSpam(kept.id, "function")).toEqual({
      kind: "open-twin",
      id: real.claim.lead.id,
    });
    expect((await store.get(kept.id))?.state).toBe("spam");
  });

  it("a call whose beginCall answered late gets only what is left of its lease, and none when nothing is (issue 40)", async () => {
    const store = await instance({ leaseMs: 4_000, databaseClock: true });
    const answeredLate = (lateMs: number): LeadStore => ({
      ...store,
      beginCall: async (claim) => {
        const begun = await store.beginCall(claim);
        await new Promise((resolve) => setTimeout(resolve, lateMs));
        return begun;
      },
    });
    const calls: { endsBy: number; leaseUntil: number | null }[] = [];
    const sink: ContactSink = {
      mode: "supabase",
      send: async (_request, { idempotencyKey, timeoutMs }) => {
        const lead = await store.get(idempotencyKey);
        calls.push({
          endsBy: Date.now() + (timeoutMs ?? Number.POSITIVE_INFINITY),
          leaseUntil: lead?.leaseUntil ?? null,
        });
        return { ok: true };
      },
    };
    const first = await store.admit(request(), { mode: "function", allow });
    if (first.kind !== "claimed") throw new Error(first.kind);
    const attempt = await attemptDelivery({ store: answeredLate(1_500), sink }, first.claim, "visitor");
    expect(attempt).toMatchObject({ called: true, state: "delivered" });
    expect(calls).toHaveLength(1);
    expect(calls[0]!.endsBy, "the call ends before its lease does").toBeLessThanOrEqual(
      calls[0]!.leaseUntil!,
    );

    const second = await store.admit(request({ email: "late@example.com" }), { mode: "function", allow });
    if (second.kind !== "claimed") throw new Error(second.kind);
    const skipped = await attemptDelivery({ store: answeredLate(3_500), sink }, second.claim, "visitor");
    expect(skipped.called).toBe(false);
    expect(calls).toHaveLength(1);
    // Handed back, never held: no call was made.
    await expect.poll(async () => (await store.get(second.claim.lead.id))?.state).toBe("pending");
  });

  it("one alert of a kind per interval, whichever instance asks", async () => {
    const a = await instance();
    const b = await instance();
    const claims = await Promise.all([a.claimAlert("dead", 60_000), b.claimAlert("dead", 60_000)]);
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect(await b.claimAlert("possibly-delivered", 60_000)).toBeTruthy();
    clock += 60_001;
    const slot = await b.claimAlert("dead", 60_000);
    expect(slot).toBeTruthy();
    // Its webhook failed: given back, the next occasion may send it at once; a second release is harmless.
    await b.releaseAlert(slot!);
    clock += 1_000;
    const again = await a.claimAlert("dead", 60_000);
    expect(again).toBeTruthy();
    await b.releaseAlert(slot!);
    expect(await b.claimAlert("dead", 60_000)).toBeUndefined();
    // A first slot given back leaves no record at all.
    const first = await a.claimAlert("pending-age", 60_000);
    await a.releaseAlert(first!);
    expect(await b.claimAlert("pending-age", 60_000)).toBeTruthy();
  });

  it("instances that start together migrate once", async () => {
    const stores = await Promise.all([instance(), instance(), instance()]);
    const { db } = opened[0]!.database;
    const migrations = await sql<{ name: string }>`select name from kysely_migration`.execute(db);
    expect(migrations.rows.map((row) => row.name)).toEqual([
      "001-leads",
      "002-email-key-nfc",
      "003-call-started",
      "004-spam",
      "005-lead-record",
    ]);
    expect(stores.every((store) => store.status().state === "ready")).toBe(true);
  });
}
