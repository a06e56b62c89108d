import { randomUUID } from "node:crypto";

import { type Kysely, sql } from "kysely";

import type { LeadRequest } from "~/lib/leads/sink.server";
import { type LeadsDatabase, writeTransaction } from "~/lib/leads/database.server";
import { emailKey, fingerprintOf } from "~/lib/leads/fingerprint.server";
import { fromStates, OPEN_STATES } from "~/lib/leads/lead-states";
import type { Claim, Instant, StoreContext, Where } from "~/lib/leads/store-context.server";
import { claimOf, leaseFields, plus } from "~/lib/leads/store-context.server";

/** An identical request delivered this recently is answered "sent" without a call (decision 026). */
export const DUPLICATE_WINDOW_MS = 10 * 60_000;

export type LimitDecision =
  { allowed: true } | { allowed: false; retryAfterSeconds: number; scope: "client" | "global" };

export type Admission =
  | { kind: "duplicate"; id: string }
  | { kind: "in-flight"; id: string }
  | { kind: "limited"; limit: Extract<LimitDecision, { allowed: false }> }
  | { kind: "stored"; id: string }
  | { kind: "claimed"; claim: Claim };

export interface AdmitOptions {
  /** "function": the lead is to be sent now; "inbox": no function, the store is its destination. */
  mode: "function" | "inbox";
  requestId?: string;
  /** Asked only when the request becomes a call or a new lead (never for a duplicate). */
  allow: () => Promise<LimitDecision>;
  /** The spam signals that hold the submission as spam (decision 042): kept, never sent. */
  spam?: readonly string[];
}

/** What a lead's row holds of its request: the document, and its address as `forget` compares it. */
export const recordOf = (request: LeadRequest) => ({
  request: JSON.stringify(request),
  emailKey: emailKey(request.email),
});

/**
 * What an identical request meets, read once (PostgreSQL reads each statement anew: two reads
 * could see a lead open, then delivered, and admit it again under a new key). In order: a live
 * attempt (wait for it), a lead delivered or kept within the duplicate window, an open lead (this
 * request is its next attempt), or nothing (a new lead). A real request never matches spam.
 */
async function seen({ now }: StoreContext, trx: Kysely<LeadsDatabase>, fingerprint: string, held: boolean) {
  const at = now();
  const since = plus(at, -DUPLICATE_WINDOW_MS);
  const rows = await trx
    .selectFrom("leads")
    .select(["id", "state", sql<number>`case when lease_until > ${at} then 1 else 0 end`.as("live")])
    .where("fingerprint", "=", fingerprint)
    .where((eb) =>
      eb.or([
        eb("state", "in", OPEN_STATES),
        eb.and([eb("state", "=", "delivered"), eb("deliveredAt", ">=", since)]),
        eb.and([eb("state", "in", held ? ["inbox", "spam"] : ["inbox"]), eb("receivedAt", ">=", since)]),
      ]),
    )
    .orderBy("receivedAt", "desc")
    .execute();
  const live = rows.find((row) => row.state === "sending" && Number(row.live) === 1);
  if (live) return { kind: "in-flight" as const, id: live.id };
  const kept = rows.find((row) => !(OPEN_STATES as string[]).includes(row.state));
  if (kept) return { kind: "duplicate" as const, id: kept.id };
  return { kind: "open" as const, id: rows[0]?.id };
}

/** The open lead (in a state a resend takes), or an attempt at it whose lease lapsed. */
const openLead =
  (id: string, at: Instant): Where =>
  (eb) =>
    eb.and([
      eb("id", "=", id),
      eb.or([
        eb("state", "in", fromStates("resend")),
        eb.and([eb("state", "=", "sending"), eb("leaseUntil", "<", at)]),
      ]),
    ]);

/**
 * A valid request arrives: a duplicate, in flight (wait for it), the next attempt of its open
 * lead, or a new lead, committed before any call. One transaction, locked per fingerprint.
 */
export async function admit(
  context: StoreContext,
  request: LeadRequest,
  { mode, requestId, allow, spam }: AdmitOptions,
): Promise<Admission> {
  const fingerprint = fingerprintOf(request);
  const held = spam !== undefined && spam.length > 0;
  // PostgreSQL: the limit is asked outside the transaction (the limiter takes connections of the
  // same pool, which waiting transactions must not all hold), after a first look, so a duplicate
  // never costs a point and a race at most one. SQLite: inside, in memory.
  const limitFirst = context.engine === "postgres";
  if (limitFirst) {
    const first = await seen(context, context.db, fingerprint, held);
    if (first.kind !== "open") return first;
    const limit = await allow();
    if (!limit.allowed) return { kind: "limited", limit };
  }
  return writeTransaction(
    context,
    async (trx): Promise<Admission> => {
      const found = await seen(context, trx, fingerprint, held);
      if (found.kind !== "open") return found;
      if (!limitFirst) {
        const limit = await allow();
        if (!limit.allowed) return { kind: "limited", limit };
      }
      const at = context.now();
      const values = { ...recordOf(request), requestId: requestId ?? null };
      // What the lead becomes: kept for the inbox, or leased for this request's call.
      const next =
        mode === "inbox"
          ? { state: "inbox" as const, leaseUntil: null, leaseToken: null }
          : leaseFields(context, at);
      if (found.id !== undefined && !held) {
        // The open lead's next attempt: same row and key, with what the visitor typed this time.
        const [row] = await trx
          .updateTable("leads")
          .set({ ...values, ...next })
          .where(openLead(found.id, at))
          .returningAll()
          .execute();
        if (row?.state === "sending") return { kind: "claimed", claim: claimOf(row) };
        // Taken meanwhile (a dispatcher, `leads retry`): its outcome is this visitor's too.
        return mode === "inbox" ? { kind: "stored", id: found.id } : { kind: "in-flight", id: found.id };
      }
      const base = { id: randomUUID(), fingerprint, receivedAt: at, source: "form", ...values };
      const row = await trx
        .insertInto("leads")
        .values(
          held
            ? { ...base, state: "spam", attempts: 0, spamSignals: spam.join(",") }
            : { ...base, ...next, attempts: mode === "inbox" ? 0 : 1, callStartedAt: null },
        )
        .returningAll()
        .executeTakeFirstOrThrow();
      return row.state === "sending"
        ? { kind: "claimed", claim: claimOf(row) }
        : { kind: "stored", id: row.id };
    },
    fingerprint,
  );
}
