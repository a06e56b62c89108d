import { sql } from "kysely";

import { admit, insertImported } from "~/lib/leads/admit.server";
import type { RetryPolicy } from "~/lib/leads/backoff";
import {
  beginCall,
  claimDue,
  claimIfIn,
  expireLeases,
  recordOutcome,
  releaseSpam,
  releaseUncalled,
  resolve,
} from "~/lib/leads/claims.server";
import { createConnection } from "~/lib/leads/connection.server";
import type { OpenDatabase } from "~/lib/leads/database.server";
import { eraseExpired, forget } from "~/lib/leads/erasure.server";
import type { LeadState } from "~/lib/leads/lead-states";
import { claimAlert, counts, getLead, list, releaseAlert, spamMatching } from "~/lib/leads/reads.server";
import { databaseClock, type StoreContext } from "~/lib/leads/store-context.server";

/**
 * Every lead, kept before anything else happens, and what became of it (decision 032), for both
 * engines: each rule that must hold across instances is decided by the database, in the module
 * that does it (admit, claims, erasure, reads; whether it answers: connection). The rules are told
 * in docs/lead-store.md; the transitions are the table in `lead-states.ts`.
 */

export { type Admission, type AdmitOptions, DUPLICATE_WINDOW_MS, type LimitDecision } from "~/lib/leads/admit.server";
export { type StoreStatus, StoreUnavailableError } from "~/lib/leads/connection.server";
export type { RetentionDays } from "~/lib/leads/erasure.server";
export { emailKey } from "~/lib/leads/fingerprint.server";
export { leadStates, type LeadState, OPEN_STATES } from "~/lib/leads/lead-states";
export type { AlertSlot } from "~/lib/leads/reads.server";
export type { Claim, Lead } from "~/lib/leads/store-context.server";

export interface LeadStoreOptions {
  database: OpenDatabase;
  /** How long a call may hold a lead before its outcome counts as unknown. */
  leaseMs: number;
  retry: RetryPolicy;
  /** A test's clock. Unset (always, outside tests): the database's, which every instance shares. */
  now?: () => number;
  /** A test's backoff jitter. */
  random?: () => number;
  /** How long to wait between attempts to reach a store that is down. */
  reconnectMs?: number;
  log?: (event: Record<string, unknown>) => void;
}

export type LeadStore = ReturnType<typeof createLeadStore>;
/** How many leads are in each state that needs watching, and the ages (seconds) of the oldest pending and undelivered ones. */
export type LeadCounts = Awaited<ReturnType<LeadStore["counts"]>>;

export function createLeadStore({
  database,
  leaseMs,
  retry,
  now,
  random = Math.random,
  reconnectMs = 5_000,
  log = (event) => console.log(JSON.stringify(event)),
}: LeadStoreOptions) {
  const { db, engine } = database;
  const connection = createConnection(database, reconnectMs, log);
  const context: StoreContext = {
    database,
    db,
    engine,
    leaseMs,
    retry,
    random,
    now: () => (now ? sql<number>`cast(${now()} as bigint)` : databaseClock(engine)),
  };
  /** An operation of the store: fails fast while it is down, and marks it down when an error says so. */
  const guarded =
    <Args extends unknown[], Result>(operation: (context: StoreContext, ...args: Args) => Promise<Result>) =>
    (...args: Args): Promise<Result> =>
      connection.guarded(() => operation(context, ...args));

  return {
    /** How long an attempt holds a lead: `beginCall` renews it to this, at the database's time. */
    leaseMs,
    start: connection.start,
    status: connection.status,
    admit: guarded(admit),
    beginCall: guarded(beginCall),
    releaseUncalled: guarded(releaseUncalled),
    recordOutcome: guarded(recordOutcome),
    resolve: guarded(resolve),
    get: guarded(getLead),
    claimDue: guarded(claimDue),
    claimIfIn: guarded(claimIfIn),
    expireLeases: guarded(expireLeases),
    list: guarded(list),
    counts: guarded(counts),
    forget: guarded(forget),
    eraseExpired: guarded(eraseExpired),
    spamMatching: guarded(spamMatching),
    releaseSpam: guarded(releaseSpam),
    claimAlert: guarded(claimAlert),
    releaseAlert: guarded(releaseAlert),
    insertImported: guarded(insertImported),
    finishBeforeClose: connection.finishBeforeClose,
    close: connection.close,

    /** Waits for another attempt at the same lead (any instance) to end, reading its row (one statement) every `pollMs`. */
    async awaitOutcome(id: string, timeoutMs: number, pollMs = 250): Promise<LeadState | "unknown"> {
      // How long the visitor waits: this process's clock; whether the lease ran out: the database's.
      const until = performance.now() + timeoutMs;
      for (;;) {
        const row = await connection.guarded(() =>
          db
            .selectFrom("leads")
            .select(["state", sql<number>`case when lease_until < ${context.now()} then 1 else 0 end`.as("lapsed")])
            .where("id", "=", id)
            .executeTakeFirst(),
        );
        if (!row) return "unknown";
        if (row.state !== "sending") return row.state as LeadState;
        if (performance.now() > until || Number(row.lapsed) === 1) return "unknown";
        await new Promise((resolve) => setTimeout(resolve, pollMs));
      }
    },
  };
}
