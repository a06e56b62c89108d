import { sql } from "kysely";

import { emailKey } from "~/lib/leads/fingerprint.server";
import type { LeadState } from "~/lib/leads/lead-states";
import { type Lead, leadOf, type StoreContext } from "~/lib/leads/store-context.server";

/** What the store holds, read: a lead, a list for the CLI, the counts the dispatcher alerts from. */

export async function get({ db }: StoreContext, id: string): Promise<Lead | undefined> {
  const row = await db.selectFrom("leads").selectAll().where("id", "=", id).executeTakeFirst();
  return row ? leadOf(row) : undefined;
}

/**
 * The leads in these states, oldest first: with `email`, only that address's (any case, NFC), or
 * the lead of that id too when `id` is given.
 */
export async function list({ db }: StoreContext, states: readonly LeadState[], email?: string, id?: string) {
  const rows = await db
    .selectFrom("leads")
    .selectAll()
    .where("state", "in", states)
    .$if(email !== undefined, (query) =>
      query.where((eb) =>
        eb.or([eb("emailKey", "=", emailKey(email ?? "")), ...(id ? [eb("id", "=", id)] : [])]),
      ),
    )
    .orderBy("receivedAt")
    .orderBy("id")
    .execute();
  return rows.map(leadOf);
}

/** The leads held as spam that this id or e-mail address (any case, NFC) names, oldest first. */
export const spamMatching = (context: StoreContext, idOrEmail: string) =>
  list(context, ["spam"], idOrEmail, idOrEmail.trim());

/** Counts of the states that need watching, and the oldest pending and undelivered ages (s). */
export async function counts({ db, now }: StoreContext) {
  const rows = await db
    .selectFrom("leads")
    .select((eb) => [
      "state",
      eb.fn.countAll<number>().as("count"),
      sql<number | null>`${now()} - min(received_at)`.as("age"),
    ])
    .where("state", "in", ["pending", "possibly_delivered", "dead", "sending", "inbox", "spam"])
    .groupBy("state")
    .execute();
  const of = (state: LeadState) => rows.find((row) => row.state === state);
  const count = (state: LeadState) => Number(of(state)?.count ?? 0);
  const age = (...states: LeadState[]) =>
    Math.max(0, ...states.map((state) => Math.round(Number(of(state)?.age ?? 0) / 1000)));
  return {
    pending: count("pending"),
    possiblyDelivered: count("possibly_delivered"),
    dead: count("dead"),
    sending: count("sending"),
    inbox: count("inbox"),
    spam: count("spam"),
    oldestPendingAgeSeconds: age("pending"),
    oldestUndeliveredAgeSeconds: age("pending", "possibly_delivered", "dead"),
  };
}

/** An alert's turn, taken in the store: given back if its webhook fails. */
export type AlertSlot = { kind: string; at: number };

/**
 * At most one alert of a kind per interval, across every instance: the slot this caller may send
 * it in, or undefined. One upsert: of two callers at once, one gets it.
 */
export async function claimAlert({ db, now }: StoreContext, kind: string, intervalMs: number) {
  const row = await db
    .insertInto("leadAlerts")
    .values({ kind, sentAt: now() })
    .onConflict((oc) =>
      oc
        .column("kind")
        .doUpdateSet({ sentAt: (eb) => eb.ref("excluded.sentAt") })
        .where("leadAlerts.sentAt", "<=", sql<number>`excluded.sent_at - ${intervalMs}`),
    )
    .returning("sentAt")
    .executeTakeFirst();
  return row ? { kind, at: Number(row.sentAt) } : undefined;
}

/** The slot's alert was not delivered (its webhook failed): the kind may be sent again at once. */
export async function releaseAlert({ db }: StoreContext, { kind, at }: AlertSlot): Promise<void> {
  await db.deleteFrom("leadAlerts").where("kind", "=", kind).where("sentAt", "=", at).execute();
}
