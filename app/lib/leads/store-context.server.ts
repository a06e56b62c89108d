import { randomUUID } from "node:crypto";

import type { Expression, ExpressionBuilder, Kysely, RawBuilder, Selectable, SqlBool } from "kysely";
import { sql } from "kysely";

import type { LeadRequest } from "~/lib/leads/sink.server";
import type { RetryPolicy } from "~/lib/leads/backoff";
import type { LeadsDatabase, LeadsTable, OpenDatabase } from "~/lib/leads/database.server";
import type { LeadState } from "~/lib/leads/lead-states";

/** What every part of the lead store shares: database, clock, settings and common SQL pieces. */

export interface StoreContext extends OpenDatabase {
  /** How long a call may hold a lead before its outcome counts as unknown. */
  leaseMs: number;
  retry: RetryPolicy;
  random: () => number;
  /** The time leases, due times and windows are measured by, computed by the statement that uses it. */
  now: () => Instant;
}

type Row = Selectable<LeadsTable>;

/** A lead as the store gives it: its row, without the store's own bookkeeping. */
export type Lead = Omit<Row, "emailKey" | "leaseToken" | "lastAttemptAt" | "spamSignals" | "request"> & {
  state: LeadState;
  request: LeadRequest | null;
  /** Why it is held as spam (its signals); empty for every other lead. */
  spamSignals: string[];
};

/** One attempt this process holds the lease of: only its holder records the outcome. */
export type Claim = { lead: Lead & { request: LeadRequest }; token: string };

/** A row as a lead: SQLite gives the document as its JSON text, PostgreSQL's driver parses `jsonb`. */
export function leadOf({ emailKey: _key, leaseToken: _token, lastAttemptAt: _at, ...row }: Row): Lead {
  const request = typeof row.request === "string" ? (JSON.parse(row.request) as LeadRequest) : row.request;
  const spamSignals = row.spamSignals ? row.spamSignals.split(",") : [];
  return { ...row, state: row.state as LeadState, request, spamSignals };
}

export const claimOf = (row: Row): Claim => ({
  lead: leadOf(row) as Claim["lead"],
  token: row.leaseToken ?? "",
});

/** A time as the database computes it, in milliseconds since the epoch, inside a statement. */
export type Instant = RawBuilder<number>;

/**
 * The database's clock (milliseconds since the epoch): PostgreSQL's, whichever instance asks, so an
 * instance whose clock runs ahead cannot take a live lease; on SQLite, the machine's.
 */
export const databaseClock = (engine: OpenDatabase["engine"]): Instant =>
  engine === "postgres"
    ? sql<number>`(extract(epoch from clock_timestamp()) * 1000)::bigint`
    : sql<number>`cast(unixepoch('subsec') * 1000 as integer)`;

export const plus = (at: Instant, ms: number): Instant => sql<number>`${at} + ${ms}`;

export type Where = (eb: ExpressionBuilder<LeadsDatabase, "leads">) => Expression<SqlBool>;

export const changedOne = (result: { numUpdatedRows: bigint }) => Number(result.numUpdatedRows) === 1;

/**
 * A lease for one more attempt. A stored lead keeps the mark of a call that may have reached the
 * function (held, or `sending` with a lapsed lease after its call began): if this attempt then
 * fails or dies before its own call, the lead is held again, never pending (seed 9001).
 */
export const leaseFields = ({ leaseMs }: StoreContext, at: Instant) => ({
  state: "sending" as const,
  leaseUntil: plus(at, leaseMs),
  leaseToken: randomUUID(),
  lastAttemptAt: at,
  nextAttemptAt: null,
  attempts: sql<number>`attempts + 1`,
  callStartedAt: sql<number | null>`case
    when state = 'possibly_delivered' then coalesce(call_started_at, last_attempt_at, received_at)
    when state = 'sending' then call_started_at
    else null end`,
});

/** Leases the leads `where` names, one token each (PostgreSQL re-checks `where` after a wait). */
export const claim = async (context: StoreContext, trx: Kysely<LeadsDatabase>, where: Where) =>
  (
    await trx
      .updateTable("leads")
      .set(leaseFields(context, context.now()))
      .where(where)
      .returningAll()
      .execute()
  ).map(claimOf);
