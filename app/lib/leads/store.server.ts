import { sql } from "kysely";

import { admit } from "~/lib/leads/admit.server";
import type { RetryPolicy } from "~/lib/leads/backoff";
import * as claims from "~/lib/leads/claims.server";
import { createConnection } from "~/lib/leads/connection.server";
import type { OpenDatabase } from "~/lib/leads/database.server";
import * as erasure from "~/lib/leads/erasure.server";
import * as reads from "~/lib/leads/reads.server";
import { databaseClock, type Instant, type StoreContext } from "~/lib/leads/store-context.server";

/**
 * Every lead, kept before anything else happens, and what became of it (decision 032), for both
 * engines: each rule that must hold across instances is decided by the database, in the module
 * that does it (admit, claims, erasure, reads; whether it answers: connection). The rules are told
 * in docs/lead-store.md; the transitions are the table in `lead-states.ts`.
 */

export type { Admission, AdmitOptions, LimitDecision } from "~/lib/leads/admit.server";
export { DUPLICATE_WINDOW_MS } from "~/lib/leads/admit.server";
export { type StoreStatus, StoreUnavailableError } from "~/lib/leads/connection.server";
export type { RetentionDays } from "~/lib/leads/erasure.server";
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

/** What the store does, each taking the store's context first. */
const OPERATIONS = { admit, ...claims, ...erasure, ...reads };
/** The store's context is the first argument of every operation: bound, each takes the rest. */
type Operation = (context: StoreContext, ...args: never[]) => unknown;
type Bound = {
  [Name in keyof typeof OPERATIONS]: (typeof OPERATIONS)[Name] extends (
    context: StoreContext,
    ...args: infer Args
  ) => infer Result
    ? (...args: Args) => Result
    : never;
};

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
  const { start, status, guarded, finishBeforeClose, close } = createConnection(database, reconnectMs, log);
  const clock = (): Instant => (now ? sql<number>`cast(${now()} as bigint)` : databaseClock(database.engine));
  const context: StoreContext = { ...database, leaseMs, retry, random, now: clock };
  // Each operation fails fast while the store is down, and marks it down when an error says so.
  const operations = Object.entries(OPERATIONS).map(([name, operation]) => [
    name,
    (...args: never[]) => guarded(async () => (operation as Operation)(context, ...args)),
  ]);
  /** `leaseMs`: how long an attempt holds a lead (`beginCall` renews it to this, at the database's time). */
  return { leaseMs, start, status, finishBeforeClose, close, ...(Object.fromEntries(operations) as Bound) };
}
