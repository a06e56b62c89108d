import { sql } from "kysely";

import { retryDelayMs } from "~/lib/leads/backoff";
import { writeTransaction } from "~/lib/leads/database.server";
import { fromStates, type LeadState, OPEN_STATES } from "~/lib/leads/lead-states";
import { get } from "~/lib/leads/reads.server";
import type { SendResult } from "~/lib/leads/sink.server";
import type { Claim, StoreContext, Where } from "~/lib/leads/store-context.server";
import { changedOne, claim, plus } from "~/lib/leads/store-context.server";

/**
 * An attempt's life: only the holder of a claim's token records what its call did
 * (docs/lead-store.md, "Exactly once"); a lapsed lease is decided by expiry.
 */

/**
 * The holder's last word before its call: records that it begins, if this claim's lease is still
 * live, and renews the lease for the call. False: do not call.
 */
export async function beginCall({ db, now, leaseMs }: StoreContext, { lead, token }: Claim) {
  const at = now();
  const result = await db
    .updateTable("leads")
    .set({ callStartedAt: sql<number>`coalesce(call_started_at, ${at})`, leaseUntil: plus(at, leaseMs) })
    .where("id", "=", lead.id)
    .where("state", "=", "sending")
    .where("leaseToken", "=", token)
    .where("leaseUntil", ">", at)
    .executeTakeFirst();
  return changedOne(result);
}

/**
 * The holder's word that its call never began (`beginCall` failed or answered too late; the store
 * may yet commit it): the lead goes back as it was, the attempt uncounted, even from expiry's hold
 * (which keeps the token). False: the claim no longer held the lead.
 */
export async function releaseUncalled({ db, now }: StoreContext, { lead, token }: Claim) {
  const wasHeld = lead.callStartedAt !== null;
  const result = await db
    .updateTable("leads")
    .set({
      state: wasHeld ? "possibly_delivered" : "pending",
      leaseUntil: null,
      leaseToken: null,
      callStartedAt: lead.callStartedAt,
      lastReason: lead.lastReason,
      nextAttemptAt: wasHeld ? null : now(),
      attempts: sql<number>`attempts - 1`,
    })
    .where("id", "=", lead.id)
    .where("state", "in", fromStates("releaseUncalled"))
    .where("leaseToken", "=", token)
    .executeTakeFirst();
  return changedOne(result);
}

/**
 * What the call ended in (docs/lead-store.md): returns the lead's new state. A sure failure of a
 * lead that was held leaves it held: the earlier unknown call still stands.
 */
export async function recordOutcome(context: StoreContext, { lead, token }: Claim, sent: SendResult) {
  const { db, retry, random } = context;
  const at = context.now();
  if (sent.ok) {
    await db
      .updateTable("leads")
      .set({ state: "delivered", deliveredAt: at, leaseUntil: null, leaseToken: null, nextAttemptAt: null })
      .where("id", "=", lead.id)
      .where("state", "in", fromStates("recordConfirmed"))
      .execute();
    return "delivered";
  }
  const state: LeadState =
    sent.possiblyDelivered || lead.callStartedAt !== null
      ? "possibly_delivered"
      : lead.attempts >= retry.maxAttempts
        ? "dead"
        : "pending";
  const [row] = await db
    .updateTable("leads")
    .set({
      state,
      leaseUntil: null,
      leaseToken: null,
      lastReason: sent.reason,
      lastStatus: sent.status ?? null,
      nextAttemptAt: state === "pending" ? plus(at, retryDelayMs(lead.attempts, retry, random)) : null,
    })
    .where("id", "=", lead.id)
    .where("state", "in", fromStates("recordFailure"))
    .where("leaseToken", "=", token)
    .returning("state")
    .execute();
  // The lease lapsed and another attempt decided meanwhile: its decision stands.
  return row ? state : ((await get(context, lead.id))?.state ?? state);
}

/** Waits for another attempt at the same lead (any instance) to end, polling its row. */
export async function awaitOutcome({ db, now }: StoreContext, id: string, timeoutMs: number, pollMs = 250) {
  // How long the visitor waits: this process's clock; whether the lease ran out: the database's.
  const until = performance.now() + timeoutMs;
  for (;;) {
    const row = await db
      .selectFrom("leads")
      .select(["state", sql<number>`case when lease_until < ${now()} then 1 else 0 end`.as("lapsed")])
      .where("id", "=", id)
      .executeTakeFirst();
    if (!row) return "unknown";
    if (row.state !== "sending") return row.state as LeadState;
    if (performance.now() > until || Number(row.lapsed) === 1) return "unknown";
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}

/** A person found a held lead arrived: delivered, with no call. False: it was not held. */
export async function resolve({ db, now }: StoreContext, id: string): Promise<boolean> {
  const result = await db
    .updateTable("leads")
    .set({ state: "delivered", deliveredAt: now(), lastReason: "resolved" })
    .where("id", "=", id.trim())
    .where("state", "in", fromStates("resolve"))
    .executeTakeFirst();
  return changedOne(result);
}

/** Leases the pending leads that are due, oldest first; another instance skips the ones taken. */
export const claimDue = (context: StoreContext, limit: number): Promise<Claim[]> =>
  claim(context, context.db, (eb) =>
    eb(
      "id",
      "in",
      eb
        .selectFrom("leads")
        .select("id")
        .where("state", "in", fromStates("dispatch"))
        .where("nextAttemptAt", "<=", context.now())
        .orderBy("nextAttemptAt")
        .limit(limit)
        .$if(context.engine === "postgres", (query) => query.forUpdate().skipLocked()),
    ),
  );

/** Leases one lead for a person's `retry`, if it is still in one of these states. */
export async function claimIfIn(context: StoreContext, id: string, states: readonly LeadState[]) {
  const allowed = fromStates("retry");
  if (!states.every((state) => allowed.includes(state)))
    throw new Error(`a person's retry takes leads from ${allowed.join(", ")} only, not ${states.join(", ")}`);
  const [claimed] = await claim(context, context.db, (eb) =>
    eb.and([eb("id", "=", id), eb("state", "in", states)]),
  );
  return claimed;
}

/** Lapsed leases: held if their call had begun (keeping the token: releaseUncalled), else pending, due now. */
export async function expireLeases({ db, now }: StoreContext) {
  const at = now();
  const uncalled = sql`call_started_at is null`;
  const rows = await db
    .updateTable("leads")
    .set({
      state: sql<string>`case when ${uncalled} then 'pending' else 'possibly_delivered' end`,
      nextAttemptAt: sql<number | null>`case when ${uncalled} then ${at} else null end`,
      attempts: sql<number>`case when ${uncalled} then attempts - 1 else attempts end`,
      lastReason: sql<string | null>`case when ${uncalled} then last_reason else 'unknown' end`,
      leaseUntil: null,
      leaseToken: sql<string | null>`case when ${uncalled} then null else lease_token end`,
    })
    .where("state", "=", "sending")
    .where("leaseUntil", "<", at)
    .returning(["id", "state"])
    .execute();
  const ids = (state: LeadState) => rows.filter((row) => row.state === state).map((row) => row.id);
  return { held: ids("possibly_delivered"), returned: ids("pending") };
}

/**
 * A person says this lead held as spam is real: an attempt (or, without a function, an inbox lead),
 * under the fingerprint's lock, so one of two releases gets it. An identical open lead keeps that
 * role: the spam copy is not released beside it.
 */
type Mode = "function" | "inbox";
type SpamRelease =
  { kind: "claimed"; claim: Claim } | { kind: "inbox" | "not-spam" } | { kind: "open-twin"; id: string };

export async function releaseSpam(context: StoreContext, id: string, mode: Mode): Promise<SpamRelease> {
  const found = await context.db
    .selectFrom("leads")
    .select("fingerprint")
    .where("id", "=", id)
    .executeTakeFirst();
  if (!found) return { kind: "not-spam" };
  return writeTransaction(
    context,
    async (trx) => {
      const spam: Where = (eb) => eb.and([eb("id", "=", id), eb("state", "in", fromStates("releaseSpam"))]);
      if (!(await trx.selectFrom("leads").select("id").where(spam).executeTakeFirst()))
        return { kind: "not-spam" };
      const twin =
        mode === "function" &&
        (await trx
          .selectFrom("leads")
          .select("id")
          .where("fingerprint", "=", found.fingerprint)
          .where("state", "in", OPEN_STATES)
          .executeTakeFirst());
      if (twin) return { kind: "open-twin", id: twin.id };
      if (mode === "inbox") {
        const result = await trx.updateTable("leads").set({ state: "inbox" }).where(spam).executeTakeFirst();
        return changedOne(result) ? { kind: "inbox" } : { kind: "not-spam" };
      }
      // Gone meanwhile: a `forget` or the spam's erasure, which take no fingerprint lock.
      const [claimed] = await claim(context, trx, spam);
      return claimed ? { kind: "claimed", claim: claimed } : { kind: "not-spam" };
    },
    found.fingerprint,
  );
}
