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
 * Every lead, kept before anything else happens (decision 032): each rule that must hold across
 * instances is decided by the database, in the module that does it. The rules: docs/lead-store.md;
 * the transitions: `lead-states.ts`.
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
  leaseMs: number;
  retry: RetryPolicy;
  /** A test's clock. Unset (always, outside tests): the database's, which every instance shares. */
  now?: () => number;
  random?: () => number;
  /** How long to wait between attempts to reach a store that is down. */
  reconnectMs?: number;
  log?: (event: Record<string, unknown>) => void;
}

const OPERATIONS = { admit, ...claims, ...erasure, ...reads };
/** Bound to the store's context, each operation takes the rest of its arguments. */
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
