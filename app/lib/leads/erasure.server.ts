import { sql } from "kysely";

import { storeError } from "~/lib/leads/database.server";
import { emailKey } from "~/lib/leads/fingerprint.server";
import { fromStates, type LeadState } from "~/lib/leads/lead-states";
import { plus, type StoreContext, type Where } from "~/lib/leads/store-context.server";

/**
 * Erasure: a person's `forget` (GDPR art. 17) and retention by age, each ending with what SQLite's
 * files still hold (docs/lead-store.md, "Personal data").
 */

/** How long an erasure waits for SQLite's checkpoint (or rewrite) before it says a copy remains. */
const ERASURE_CHECKPOINT_MS = 5_000;

const DAY_MS = 86_400_000;

export interface RetentionDays {
  /** Personal fields of a delivered lead, from its delivery; of an inbox lead, from its receipt. */
  delivered: number;
  /** Pending, dead and held leads, from their receipt. */
  undelivered: number;
  spam: number;
}

/**
 * Whether SQLite's files hold no copy of what was just erased: the log emptied (a reader of an
 * older snapshot keeps old pages there: "busy"), and with `rewrite` the file rebuilt (free pages
 * from before secure_delete). PostgreSQL: docs/lead-store.md.
 */
async function noCopyLeft({ db, engine }: StoreContext, rewrite = false): Promise<boolean> {
  if (engine !== "sqlite") return true;
  const until = performance.now() + ERASURE_CHECKPOINT_MS;
  for (let vacuumed = !rewrite; ; await new Promise((resolve) => setTimeout(resolve, 250))) {
    try {
      if (!vacuumed) await sql`vacuum`.execute(db);
      vacuumed = true;
      const { rows } = await sql<{ busy: number }>`pragma wal_checkpoint(TRUNCATE)`.execute(db);
      if (Number(rows[0]?.busy ?? 1) === 0) return true;
    } catch (error) {
      if (storeError(error).down) throw error;
    }
    if (performance.now() >= until) return false;
  }
}

/** Deletes the leads `where` names; with `keepRow`, empties their document instead. */
async function erase({ db, now }: StoreContext, where: Where, keepRow: boolean): Promise<number> {
  const result = keepRow
    ? await db
        .updateTable("leads")
        .set({ request: null, emailKey: "", fingerprint: "erased", requestId: null, erasedAt: now() })
        .where(where)
        .where("erasedAt", "is", null)
        .executeTakeFirst()
    : await db.deleteFrom("leads").where(where).executeTakeFirst();
  return Number("numUpdatedRows" in result ? result.numUpdatedRows : result.numDeletedRows);
}

/**
 * GDPR art. 17: every lead of this address erased, and whether no copy is left on disk (SQLite:
 * the file rewritten and its log emptied; run again, it finishes what a reader kept).
 */
export async function forget(context: StoreContext, email: string) {
  const erased = await erase(context, (eb) => eb.and([eb("emailKey", "=", emailKey(email))]), false);
  return { erased, copiesGone: await noCopyLeft(context, true) };
}

/**
 * Retention (docs/lead-store.md), one pass. Ends with SQLite's checkpoint every time, so a copy a
 * reader kept in the log last hour is gone this hour.
 */
export async function eraseExpired(context: StoreContext, days: RetentionDays) {
  const older =
    (states: readonly LeadState[], column: "receivedAt" | "deliveredAt", ageDays: number): Where =>
    (eb) =>
      eb.and([eb("state", "in", states), eb(column, "<", plus(context.now(), -ageDays * DAY_MS))]);
  const delivered =
    (await erase(context, older(["delivered"], "deliveredAt", days.delivered), true)) +
    (await erase(context, older(["inbox"], "receivedAt", days.delivered), true));
  const undelivered = await erase(
    context,
    older(fromStates("eraseUndelivered"), "receivedAt", days.undelivered),
    false,
  );
  const spam = await erase(context, older(fromStates("eraseSpam"), "receivedAt", days.spam), false);
  const erased = delivered + undelivered + spam;
  return { delivered, undelivered, spam, erased, copiesGone: await noCopyLeft(context) };
}
