import { randomUUID } from "node:crypto";

import { type ExpressionBuilder, type InsertObject, type Kysely, type RawBuilder, sql } from "kysely";

import type { LeadRequest } from "~/lib/leads/request";
import type { SendResult } from "~/lib/leads/sink.server";
import { emailKey, fingerprintOf } from "~/lib/leads/fingerprint.server";
import { type RetryPolicy, retryDelayMs } from "~/lib/leads/backoff";
import {
  errorText,
  type StoreErrorClass,
  storeErrorClass,
  type LeadsDatabase,
  type LeadsTable,
  type OpenDatabase,
  writeTransaction,
} from "~/lib/leads/database.server";
import { fromStates, type LeadState, OPEN_STATES } from "~/lib/leads/lead-states";
import { migrateToLatest } from "~/lib/leads/migrations.server";

/**
 * Every lead, kept before anything else happens, and what became of it (decision 032). One store
 * for both engines; every rule that must hold across instances and restarts is decided here, in a
 * transaction, never in one process's memory. The states and the transitions between them are one
 * table, `lead-states.ts`; what each means for a lead is told in docs/lead-store.md.
 */

export { leadStates, type LeadState, OPEN_STATES } from "~/lib/leads/lead-states";

/** How long an erasure waits for SQLite's write-ahead log to be emptied before it says a copy remains. */
export const ERASURE_CHECKPOINT_MS = 5_000;

/** An identical request delivered this recently is answered "sent" without a call (decision 026). */
export const DUPLICATE_WINDOW_MS = 10 * 60_000;

export interface Lead {
  id: string;
  fingerprint: string;
  state: LeadState;
  receivedAt: number;
  request: LeadRequest;
  requestId: string | null;
  source: string;
  attempts: number;
  nextAttemptAt: number | null;
  leaseUntil: number | null;
  callStartedAt: number | null;
  lastAttemptAt: number | null;
  lastReason: string | null;
  lastStatus: number | null;
  deliveredAt: number | null;
  erasedAt: number | null;
  /** Why it is held as spam (its signals); empty for every other lead. */
  spamSignals: string[];
}

/** One attempt this process holds the lease of: only its holder records the outcome. */
export interface Claim {
  lead: Lead;
  token: string;
}

/** An alert's turn, taken in the store: given back if its webhook fails. */
export interface AlertSlot {
  kind: string;
  at: number;
  previous: number | null;
}

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
  /**
   * The spam signals the submission showed, when they hold it (decision 042): it is kept as `spam`,
   * never sent and never joined to an open lead; an identical spam submission within the duplicate
   * window is a duplicate.
   */
  spam?: readonly string[];
}

export interface StoreStatus {
  engine: OpenDatabase["engine"];
  location: string;
  state: "connecting" | "ready" | "unavailable";
  /** Why it is unavailable, with the driver's detail: for the log and the startup line only. */
  reason?: string;
  /** The same as a class, for what the public may read (/healthz). */
  reasonClass?: StoreErrorClass;
}

export interface LeadCounts {
  pending: number;
  possiblyDelivered: number;
  dead: number;
  sending: number;
  inbox: number;
  spam: number;
  /** Seconds since the oldest pending lead arrived; 0 when none is pending. */
  oldestPendingAgeSeconds: number;
}

export class StoreUnavailableError extends Error {
  constructor(reason: string) {
    super(`the lead store is unavailable: ${reason}`);
    this.name = "StoreUnavailableError";
  }
}

export interface LeadStoreOptions {
  database: OpenDatabase;
  /** How long a call may hold a lead before its outcome counts as unknown. */
  leaseMs: number;
  retry: RetryPolicy;
  /**
   * A test's clock in place of the database's. Unset (always, outside tests): every time the store
   * writes or compares comes from the database (`databaseNow`), so that instances and CLI runs whose
   * own clocks disagree still agree on whose lease is live.
   */
  now?: () => number;
  random?: () => number;
  /** How long to wait between attempts to reach a store that is down. */
  reconnectMs?: number;
  log?: (event: Record<string, unknown>) => void;
}

type Row = LeadsTable;

function toLead(row: Row): Lead {
  return {
    id: row.id,
    fingerprint: row.fingerprint,
    state: row.state as LeadState,
    receivedAt: Number(row.received_at),
    request: {
      name: row.name,
      email: row.email,
      phone: row.phone,
      company: row.company,
      website: row.website,
      companySize: row.company_size,
      industry: row.industry,
      message: row.message,
    },
    requestId: row.request_id,
    source: row.source,
    attempts: Number(row.attempts),
    nextAttemptAt: row.next_attempt_at === null ? null : Number(row.next_attempt_at),
    leaseUntil: row.lease_until === null ? null : Number(row.lease_until),
    callStartedAt: row.call_started_at == null ? null : Number(row.call_started_at),
    lastAttemptAt: row.last_attempt_at === null ? null : Number(row.last_attempt_at),
    lastReason: row.last_reason,
    lastStatus: row.last_status === null ? null : Number(row.last_status),
    deliveredAt: row.delivered_at === null ? null : Number(row.delivered_at),
    erasedAt: row.erased_at === null ? null : Number(row.erased_at),
    spamSignals: row.spam_signals ? row.spam_signals.split(",") : [],
  };
}

export { emailKey };

/** The eight fields as columns, and the address as it is compared. */
export function requestColumns(request: LeadRequest) {
  return {
    name: request.name,
    email: request.email,
    email_key: emailKey(request.email),
    phone: request.phone,
    company: request.company,
    website: request.website,
    company_size: request.companySize,
    industry: request.industry,
    message: request.message,
  };
}

/**
 * The database's clock in milliseconds since the epoch, read on the connection (or transaction) that
 * is about to use it. On PostgreSQL `clock_timestamp()`, the server's clock whichever instance asks
 * (an instance whose own clock runs ahead cannot take a live lease for an abandoned one); on SQLite
 * `unixepoch('subsec')`, the clock of the machine whose processes share the file.
 */
async function databaseNow(db: Kysely<LeadsDatabase>, engine: OpenDatabase["engine"]): Promise<number> {
  const query =
    engine === "postgres"
      ? sql<{ now: number | string }>`select extract(epoch from clock_timestamp()) * 1000 as now`
      : sql<{ now: number | string }>`select unixepoch('subsec') * 1000 as now`;
  const { rows } = await query.execute(db);
  return Math.round(Number(rows[0]!.now));
}

/** A time as the database computes it, in milliseconds since the epoch, inside a statement. */
type Instant = RawBuilder<number>;

/** `at` moved by `ms` (both in milliseconds), in SQL. */
const plus = (at: Instant, ms: number): Instant => sql<number>`${at} + ${ms}`;

/**
 * What an identical request meets, if anything: a lead being sent right now (an unexpired lease),
 * or one delivered (or kept in the inbox) within the duplicate window. Undefined: it is a new lead,
 * or the next attempt of an open one.
 */
async function earlier(
  db: Kysely<LeadsDatabase>,
  fingerprint: string,
  at: Instant,
  spam = false,
): Promise<Extract<Admission, { kind: "duplicate" | "in-flight" }> | undefined> {
  // Kept within the window: inbox leads, and for a spam submission the spam ones too (a real
  // resend of a lead held as spam is never answered "duplicate": it goes on to be sent).
  const keptStates = spam ? ["inbox", "spam"] : ["inbox"];
  const row = await db
    .selectFrom("leads")
    .select(["id", "state", "lease_until"])
    .where("fingerprint", "=", fingerprint)
    .where((eb) =>
      eb.or([
        eb.and([eb("state", "=", "sending"), eb("lease_until", ">", at)]),
        eb.and([eb("state", "=", "delivered"), eb("delivered_at", ">=", plus(at, -DUPLICATE_WINDOW_MS))]),
        eb.and([eb("state", "in", keptStates), eb("received_at", ">=", plus(at, -DUPLICATE_WINDOW_MS))]),
      ]),
    )
    .orderBy("received_at", "desc")
    .executeTakeFirst();
  if (!row) return undefined;
  return row.state === "sending" ? { kind: "in-flight", id: row.id } : { kind: "duplicate", id: row.id };
}

export type LeadStore = ReturnType<typeof createLeadStore>;

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
  /** The time by which leases, due times and windows are measured: the database's (see `databaseNow`). */
  const clock = (on: Kysely<LeadsDatabase> = db): Promise<number> =>
    now ? Promise.resolve(now()) : databaseNow(on, engine);
  /**
   * The same time, computed by the statement that uses it (no round trip of its own, which the
   * hot path of a post would pay several times over).
   */
  const nowSql = (): Instant =>
    now
      ? sql<number>`cast(${now()} as bigint)`
      : engine === "postgres"
        ? sql<number>`(extract(epoch from clock_timestamp()) * 1000)::bigint`
        : sql<number>`cast(unixepoch('subsec') * 1000 as integer)`;
  let status: StoreStatus = { engine, location: database.location, state: "connecting" };
  let reconnect: NodeJS.Timeout | undefined;
  let starting: Promise<StoreStatus> | undefined;
  let closed = false;
  /** Work that must reach the store before it closes (a claim handed back), awaited by `close`. */
  const unfinished = new Set<Promise<unknown>>();

  const scheduleReconnect = () => {
    if (closed || reconnect) return;
    reconnect = setTimeout(() => {
      reconnect = undefined;
      void connect();
    }, reconnectMs);
    reconnect.unref();
  };

  const markDown = (error: unknown) => {
    const wasDown = status.state === "unavailable";
    const reason = errorText(error);
    status = {
      engine,
      location: database.location,
      state: "unavailable",
      reason,
      reasonClass: storeErrorClass(error),
    };
    if (!wasDown) log({ event: "lead_store_unavailable", engine, reason });
    scheduleReconnect();
  };

  /** Connects and migrates; on failure says why, and tries again every `reconnectMs`. */
  const connect = async (): Promise<StoreStatus> => {
    try {
      const applied = await migrateToLatest(db as unknown as Kysely<unknown>);
      const wasDown = status.state === "unavailable";
      status = { engine, location: database.location, state: "ready" };
      log({ event: wasDown ? "lead_store_reconnected" : "lead_store_ready", engine, migrations: applied });
    } catch (error) {
      markDown(error);
    }
    return status;
  };

  /** Every operation: fails fast while the store is known to be down, and marks it down when a query fails. */
  const guarded = async <T>(work: () => Promise<T>): Promise<T> => {
    if (status.state !== "ready") throw new StoreUnavailableError(status.reason ?? status.state);
    try {
      return await work();
    } catch (error) {
      if (isConnectionError(error)) {
        markDown(error);
        throw new StoreUnavailableError(errorText(error));
      }
      throw error;
    }
  };

  const leaseFields = (at: Instant) => ({
    state: "sending" as const,
    lease_until: plus(at, leaseMs),
    lease_token: randomUUID(),
    call_started_at: null,
    last_attempt_at: at,
    next_attempt_at: null,
  });

  /**
   * The same for a lead already stored. A lead that a call may have reached keeps that mark: one
   * held as possibly delivered, and one still `sending` whose lease ran out after its call began
   * (its holder died mid-call, and no dispatcher has swept it yet). If this attempt's lease runs out
   * before its own call begins (its process killed, or stuck on the store), the lead goes back to
   * being held, never to pending, where a dispatcher would send it again (found by the history
   * test, seed 9001). Read from the row as it was (SET sees the old values).
   */
  const leaseStoredFields = (at: Instant) => ({
    ...leaseFields(at),
    call_started_at: sql<number | null>`case
      when state = 'possibly_delivered' then coalesce(call_started_at, last_attempt_at, received_at)
      when state = 'sending' then call_started_at
      else null end`,
  });

  const claimOf = (row: Row): Claim => ({ lead: toLead(row), token: row.lease_token ?? "" });

  /**
   * SQLite keeps the pages a statement replaced in its write-ahead log until a checkpoint copies
   * the log back and truncates it; a program reading an older snapshot (a backup, an export, a
   * `list`) holds those frames, and the checkpoint then answers "busy". Erasures wait for it,
   * within `ERASURE_CHECKPOINT_MS`, and say whether the log is empty. PostgreSQL: nothing to do
   * here (its dead rows go at its next VACUUM: docs/lead-store.md).
   */
  const emptyWriteAheadLog = async (): Promise<boolean> => {
    if (engine !== "sqlite") return true;
    const until = performance.now() + ERASURE_CHECKPOINT_MS;
    for (;;) {
      const { rows } = await sql<{ busy: number }>`pragma wal_checkpoint(TRUNCATE)`.execute(db);
      if (Number(rows[0]?.busy ?? 1) === 0) return true;
      if (performance.now() >= until) return false;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  };

  /**
   * The one claim rule: a lead is taken for an attempt by one conditional statement that names the
   * states it may start from (issue 40: "not held" matched a delivered lead too), and an attempt
   * whose lease ran out when the claim says so. On PostgreSQL a concurrent claim waits for the row
   * and re-checks this condition on the row it then sees, so of two attempts (a visitor's resend,
   * a dispatcher, `leads retry`) exactly one gets the lead, and none takes one that another
   * session delivered meanwhile.
   */
  const claimableFrom =
    (states: readonly LeadState[], at: Instant, { expiredLease }: { expiredLease: boolean }) =>
    (eb: ExpressionBuilder<LeadsDatabase, "leads">) =>
      eb.or([
        eb(
          "state",
          "in",
          states.filter((state) => state !== "sending"),
        ),
        ...(expiredLease
          ? [
              eb.and([
                eb("state", "=", "sending"),
                eb.or([eb("lease_until", "is", null), eb("lease_until", "<", at)]),
              ]),
            ]
          : []),
      ]);

  /** Leases each of these leads, still in one of `states`, to this process for one more attempt, each with its own token. */
  const lease = async (
    trx: Kysely<LeadsDatabase>,
    ids: string[],
    states: readonly LeadState[],
  ): Promise<Claim[]> => {
    const at = nowSql();
    const claims: Claim[] = [];
    for (const id of ids) {
      const row = await trx
        .updateTable("leads")
        .set({ ...leaseStoredFields(at), attempts: sql<number>`attempts + 1` })
        .where("id", "=", id)
        .where(claimableFrom(states, at, { expiredLease: false }))
        .returningAll()
        .executeTakeFirst();
      if (row) claims.push(claimOf(row));
    }
    return claims;
  };

  return {
    /** How long an attempt holds a lead: `beginCall` renews it to this, at the database's time. */
    leaseMs,

    start(): Promise<StoreStatus> {
      starting ??= connect();
      return starting;
    },

    status: (): StoreStatus => status,

    /**
     * A valid request arrives. Decided in one transaction, locked per fingerprint: an identical
     * lead delivered within the window is a duplicate; one being sent is in flight (wait for it);
     * an open one (pending, dead, possibly delivered) becomes this attempt; otherwise a new lead,
     * committed before the function is called.
     */
    admit(request: LeadRequest, { mode, requestId, allow, spam }: AdmitOptions): Promise<Admission> {
      const fingerprint = fingerprintOf(request);
      return guarded(async () => {
        // On PostgreSQL the limit is asked outside the transaction: the limiter takes connections
        // of the same pool, which transactions waiting for it must not all be holding. A duplicate
        // or a lead in flight is answered before it is asked (it never costs the visitor a point);
        // the transaction decides again, so a race only ever costs one. SQLite's limiter is in
        // memory and its one connection serializes everything: asked inside, one turn per post.
        const limitFirst = engine === "postgres";
        const held = spam !== undefined && spam.length > 0;
        if (limitFirst) {
          const seen = await earlier(db, fingerprint, nowSql(), held);
          if (seen) return seen;
          const limit = await allow();
          if (!limit.allowed) return { kind: "limited", limit };
        }
        return writeTransaction(
          database,
          async (trx): Promise<Admission> => {
            const at = nowSql();
            /** A new row for this request, in the state (and with the fields) given. */
            const insertNew = ({
              state,
              attempts,
              ...fields
            }: Partial<InsertObject<LeadsDatabase, "leads">> & { state: LeadState; attempts: number }) =>
              trx
                .insertInto("leads")
                .values({
                  id: randomUUID(),
                  fingerprint,
                  received_at: at,
                  ...requestColumns(request),
                  request_id: requestId ?? null,
                  source: "form",
                  ...fields,
                  state,
                  attempts,
                })
                .returningAll()
                .executeTakeFirstOrThrow();
            const raced = await earlier(trx, fingerprint, at, held);
            if (raced) return raced;
            if (!limitFirst) {
              const limit = await allow();
              if (!limit.allowed) return { kind: "limited", limit };
            }
            // Spam is never an attempt at an open lead, never a call: kept for a person to look at.
            if (held) {
              const row = await insertNew({ state: "spam", attempts: 0, spam_signals: spam.join(",") });
              return { kind: "stored", id: row.id };
            }
            const open = await trx
              .selectFrom("leads")
              .selectAll()
              .where("fingerprint", "=", fingerprint)
              .where("state", "in", OPEN_STATES)
              .executeTakeFirst();
            if (open) {
              // The visitor's resend is the open lead's next attempt: same row, same Idempotency-Key,
              // with what they typed this time.
              const state =
                mode === "inbox"
                  ? { state: "inbox", lease_until: null, lease_token: null }
                  : leaseStoredFields(at);
              const row = await trx
                .updateTable("leads")
                .set({
                  ...requestColumns(request),
                  ...state,
                  attempts: mode === "inbox" ? open.attempts : sql<number>`attempts + 1`,
                  request_id: requestId ?? null,
                })
                .where("id", "=", open.id)
                // The open states, or an attempt whose holder's lease ran out: never a lead another
                // session delivered (or is sending) while this one waited for the row.
                .where(claimableFrom(fromStates("resend"), at, { expiredLease: true }))
                .returningAll()
                .executeTakeFirst();
              // A dispatcher or `leads retry` took it between our read and this claim: its attempt
              // is this visitor's too (wait for its outcome), never a second call beside it.
              if (!row) return { kind: "in-flight", id: open.id };
              return mode === "inbox"
                ? { kind: "stored", id: row.id }
                : { kind: "claimed", claim: claimOf(row) };
            }
            const row = await insertNew(
              mode === "inbox" ? { state: "inbox", attempts: 0 } : { ...leaseFields(at), attempts: 1 },
            );
            return mode === "inbox"
              ? { kind: "stored", id: row.id }
              : { kind: "claimed", claim: claimOf(row) };
          },
          fingerprint,
        );
      });
    },

    /**
     * The holder's last word before its call: records that the call begins, if this claim still
     * holds a live lease (it may have run out while the lead waited, and another attempt taken it),
     * and renews the lease from now, so the whole lease (the function's timeout and the margin to
     * record its outcome) is the call's, however long the claim waited for the store. False: do not
     * call. Only after this can the lead become possibly delivered.
     */
    async beginCall({ lead, token }: Claim): Promise<boolean> {
      return guarded(async () => {
        const at = nowSql();
        const result = await db
          .updateTable("leads")
          .set({
            // Kept when a call may have reached the function before this claim (leaseStoredFields).
            call_started_at: sql<number>`coalesce(call_started_at, ${at})`,
            lease_until: plus(at, leaseMs),
          })
          .where("id", "=", lead.id)
          .where("state", "=", "sending")
          .where("lease_token", "=", token)
          .where("lease_until", ">", at)
          .executeTakeFirst();
        return Number(result.numUpdatedRows) === 1;
      });
    },

    /**
     * The holder's word that its call never began, after `beginCall` failed: the store may still
     * have committed it (a PostgreSQL server paused past the query timeout runs the statement when
     * it wakes), which would hold as possibly delivered a lead nobody sent. Hands the lead back:
     * held again if a call may have reached the function before this claim, else pending and due
     * now (a dead lead a person retried too: their attempt stands, the dispatcher makes it), the
     * attempt uncounted. Matches only this claim's token, so it cannot undo a later claim's call, and a
     * `beginCall` that commits after it matches nothing. False: the claim no longer held the lead.
     */
    async releaseUncalled({ lead, token }: Claim): Promise<boolean> {
      return guarded(async () => {
        const at = nowSql();
        const wasHeld = lead.callStartedAt !== null;
        const result = await db
          .updateTable("leads")
          .set({
            state: wasHeld ? "possibly_delivered" : "pending",
            lease_until: null,
            lease_token: null,
            call_started_at: lead.callStartedAt,
            next_attempt_at: wasHeld ? null : at,
            attempts: sql<number>`attempts - 1`,
          })
          .where("id", "=", lead.id)
          .where("state", "=", "sending")
          .where("lease_token", "=", token)
          .executeTakeFirst();
        return Number(result.numUpdatedRows) === 1;
      });
    },

    /**
     * What the call of a claimed attempt ended in. Confirmed: delivered (even if the lease expired
     * meanwhile: a confirmation is the truth). Failed for sure: pending with backoff, or dead after
     * the last attempt. Unknown: possibly delivered. Returns the lead's new state.
     */
    async recordOutcome({ lead, token }: Claim, sent: SendResult): Promise<LeadState> {
      return guarded(async () => {
        const at = nowSql();
        if (sent.ok) {
          await db
            .updateTable("leads")
            .set({
              state: "delivered",
              delivered_at: at,
              lease_until: null,
              lease_token: null,
              next_attempt_at: null,
            })
            .where("id", "=", lead.id)
            .where("state", "in", fromStates("recordConfirmed"))
            .execute();
          return "delivered";
        }
        const state: LeadState = sent.possiblyDelivered
          ? "possibly_delivered"
          : lead.attempts >= retry.maxAttempts
            ? "dead"
            : "pending";
        const result = await db
          .updateTable("leads")
          .set({
            state,
            lease_until: null,
            lease_token: null,
            last_reason: sent.reason,
            last_status: sent.status ?? null,
            next_attempt_at:
              state === "pending" ? plus(at, retryDelayMs(lead.attempts, retry, random)) : null,
          })
          .where("id", "=", lead.id)
          .where("state", "in", fromStates("recordFailure"))
          .where("lease_token", "=", token)
          .executeTakeFirst();
        // The lease expired and someone else decided meanwhile: their decision stands.
        if (Number(result.numUpdatedRows) === 0) return (await this.get(lead.id))?.state ?? state;
        return state;
      });
    },

    async get(id: string): Promise<Lead | undefined> {
      return guarded(async () => {
        const row = await db.selectFrom("leads").selectAll().where("id", "=", id).executeTakeFirst();
        return row ? toLead(row) : undefined;
      });
    },

    /** Waits for another attempt at the same lead (any instance) to end, polling its row. */
    async awaitOutcome(id: string, timeoutMs: number, pollMs = 100): Promise<LeadState | "unknown"> {
      // How long this visitor waits is this process's own business (a monotonic clock); whether
      // the holder's lease ran out is the database's.
      const until = performance.now() + timeoutMs;
      for (;;) {
        const lead = await this.get(id);
        if (!lead) return "unknown";
        if (lead.state !== "sending") return lead.state;
        if (performance.now() > until || (lead.leaseUntil ?? 0) < (await guarded(() => clock())))
          return "unknown";
        await new Promise((resolve) => setTimeout(resolve, pollMs));
      }
    },

    /** Leases the pending leads that are due, oldest first; another instance skips the ones taken. */
    async claimDue(limit: number): Promise<Claim[]> {
      return guarded(() =>
        writeTransaction(database, async (trx) => {
          const due = await trx
            .selectFrom("leads")
            .select("id")
            .where("state", "in", fromStates("dispatch"))
            .where("next_attempt_at", "<=", nowSql())
            .orderBy("next_attempt_at")
            .limit(limit)
            .$if(engine === "postgres", (query) => query.forUpdate().skipLocked())
            .execute();
          return lease(
            trx,
            due.map((row) => row.id),
            fromStates("dispatch"),
          );
        }),
      );
    },

    /** The ids of the leads in these states, oldest first (what a person's `retry` will try). */
    async idsIn(states: readonly LeadState[]): Promise<string[]> {
      return guarded(async () => {
        const rows = await db
          .selectFrom("leads")
          .select("id")
          .where("state", "in", states)
          .orderBy("received_at")
          .orderBy("id")
          .execute();
        return rows.map((row) => row.id);
      });
    },

    /**
     * Leases one lead for a person's `retry`, just before its call, if it is still in one of these
     * states (a dispatcher or a visitor may have taken it meanwhile): a lease is never held by a
     * lead that waits its turn, so it cannot run out before the call.
     */
    async claimIfIn(id: string, states: readonly LeadState[]): Promise<Claim | undefined> {
      const allowed = fromStates("retry");
      if (!states.every((state) => allowed.includes(state)))
        throw new Error(
          `a person's retry takes leads from ${allowed.join(", ")} only, not ${states.join(", ")}`,
        );
      return guarded(() =>
        writeTransaction(database, async (trx) => {
          const row = await trx
            .selectFrom("leads")
            .select("id")
            .where("id", "=", id)
            .where("state", "in", states)
            .$if(engine === "postgres", (query) => query.forUpdate().skipLocked())
            .executeTakeFirst();
          if (!row) return undefined;
          return (await lease(trx, [row.id], states))[0];
        }),
      );
    },

    /**
     * Attempts whose lease ran out (their process died, or lost the store): one whose call had
     * begun may have reached the function and is held as possibly delivered; one that was never
     * called goes back to pending, due now, for the dispatcher to send under its own key.
     */
    async expireLeases(): Promise<{ held: string[]; returned: string[] }> {
      return guarded(async () => {
        const at = nowSql();
        const expired = (eb: ExpressionBuilder<LeadsDatabase, "leads">) =>
          eb.and([eb("state", "=", "sending"), eb("lease_until", "<", at)]);
        const held = await db
          .updateTable("leads")
          .set({ state: "possibly_delivered", lease_until: null, lease_token: null, last_reason: "unknown" })
          .where(expired)
          .where("call_started_at", "is not", null)
          .returning("id")
          .execute();
        const returned = await db
          .updateTable("leads")
          .set({
            state: "pending",
            lease_until: null,
            lease_token: null,
            next_attempt_at: at,
            // The attempt the claim counted never happened.
            attempts: sql<number>`attempts - 1`,
          })
          .where(expired)
          .where("call_started_at", "is", null)
          .returning("id")
          .execute();
        return { held: held.map((row) => row.id), returned: returned.map((row) => row.id) };
      });
    },

    async list(states: readonly LeadState[]): Promise<Lead[]> {
      return guarded(async () => {
        const rows = await db
          .selectFrom("leads")
          .selectAll()
          .where("state", "in", states)
          .orderBy("received_at")
          .orderBy("id")
          .execute();
        return rows.map(toLead);
      });
    },

    async counts(): Promise<LeadCounts> {
      return guarded(async () => {
        const at = await clock();
        const rows = await db
          .selectFrom("leads")
          .select((eb) => [
            "state",
            eb.fn.countAll<number>().as("count"),
            eb.fn.min("received_at").as("oldest"),
          ])
          .where("state", "in", ["pending", "possibly_delivered", "dead", "sending", "inbox", "spam"])
          .groupBy("state")
          .execute();
        const of = (state: LeadState) => rows.find((row) => row.state === state);
        const oldest = of("pending")?.oldest;
        return {
          pending: Number(of("pending")?.count ?? 0),
          possiblyDelivered: Number(of("possibly_delivered")?.count ?? 0),
          dead: Number(of("dead")?.count ?? 0),
          sending: Number(of("sending")?.count ?? 0),
          inbox: Number(of("inbox")?.count ?? 0),
          spam: Number(of("spam")?.count ?? 0),
          oldestPendingAgeSeconds: oldest == null ? 0 : Math.max(0, Math.round((at - Number(oldest)) / 1000)),
        };
      });
    },

    /**
     * GDPR art. 17: every lead of this address, in any state, erased. Returns how many, and whether
     * no copy is left on disk (SQLite: false while another program's read keeps the old pages in
     * the write-ahead log; never say "erased" then).
     */
    async forget(email: string): Promise<{ erased: number; copiesGone: boolean }> {
      return guarded(async () => {
        const result = await db
          .deleteFrom("leads")
          .where("email_key", "=", emailKey(email))
          .executeTakeFirst();
        // Gone from the file too: VACUUM rewrites it without free pages (where copies from before
        // secure_delete may linger), and the checkpoint empties the write-ahead log.
        if (engine === "sqlite") await sql`vacuum`.execute(db);
        return { erased: Number(result.numDeletedRows), copiesGone: await emptyWriteAheadLog() };
      });
    },

    /**
     * Retention: the personal fields of leads the function confirmed more than `days` ago are
     * erased (the row stays, for counts). Inbox leads are never erased here: the store is their
     * only copy.
     */
    async eraseDeliveredOlderThan(days: number): Promise<{ erased: number; copiesGone: boolean }> {
      return guarded(async () => {
        const at = nowSql();
        const result = await db
          .updateTable("leads")
          .set({
            ...requestColumns({
              name: "",
              email: "",
              phone: "",
              company: "",
              website: "",
              companySize: "",
              industry: "",
              message: "",
            }),
            fingerprint: "erased",
            request_id: null,
            erased_at: at,
          })
          .where("state", "in", fromStates("retention"))
          .where("delivered_at", "<", plus(at, -days * 86_400_000))
          .where("erased_at", "is", null)
          .executeTakeFirst();
        const erased = Number(result.numUpdatedRows);
        return { erased, copiesGone: erased === 0 || (await emptyWriteAheadLog()) };
      });
    },

    /** The leads held as spam that this id or e-mail address (any case, NFC) names, oldest first. */
    async spamMatching(idOrEmail: string): Promise<Lead[]> {
      return guarded(async () => {
        const rows = await db
          .selectFrom("leads")
          .selectAll()
          .where("state", "=", "spam")
          .where((eb) => eb.or([eb("id", "=", idOrEmail.trim()), eb("email_key", "=", emailKey(idOrEmail))]))
          .orderBy("received_at")
          .orderBy("id")
          .execute();
        return rows.map(toLead);
      });
    },

    /**
     * A person says this lead held as spam is real. With a function it becomes an attempt like a
     * visitor's (leased here, called once under its own key by the caller, `attemptDelivery`); in
     * inbox mode it joins the inbox. One conditional statement, under the fingerprint's lock that
     * admissions take: of two releases at once (two shells, two machines) exactly one gets it, and
     * a release run again finds no spam. An identical lead still open (being delivered) keeps
     * that role: the spam copy is not released beside it.
     */
    async releaseSpam(
      id: string,
      mode: "function" | "inbox",
    ): Promise<
      | { kind: "claimed"; claim: Claim }
      | { kind: "inbox" }
      | { kind: "not-spam" }
      | { kind: "open-twin"; id: string }
    > {
      return guarded(async () => {
        const found = await db
          .selectFrom("leads")
          .select("fingerprint")
          .where("id", "=", id)
          .executeTakeFirst();
        if (!found) return { kind: "not-spam" };
        return writeTransaction(
          database,
          async (trx) => {
            const at = nowSql();
            if (mode === "inbox") {
              const result = await trx
                .updateTable("leads")
                .set({ state: "inbox" })
                .where("id", "=", id)
                .where("state", "in", fromStates("releaseSpam"))
                .executeTakeFirst();
              return Number(result.numUpdatedRows) === 1 ? { kind: "inbox" } : { kind: "not-spam" };
            }
            const twin = await trx
              .selectFrom("leads")
              .select("id")
              .where("fingerprint", "=", found.fingerprint)
              .where("state", "in", OPEN_STATES)
              .executeTakeFirst();
            const row = twin
              ? undefined
              : await trx
                  .updateTable("leads")
                  .set({ ...leaseFields(at), attempts: sql<number>`attempts + 1` })
                  .where("id", "=", id)
                  .where("state", "in", fromStates("releaseSpam"))
                  .returningAll()
                  .executeTakeFirst();
            if (row) return { kind: "claimed", claim: claimOf(row) };
            const still = await trx
              .selectFrom("leads")
              .select("state")
              .where("id", "=", id)
              .executeTakeFirst();
            return twin && still?.state === "spam"
              ? { kind: "open-twin", id: twin.id }
              : { kind: "not-spam" };
          },
          found.fingerprint,
        );
      });
    },

    /** Spam older than `days` is erased, row and all (decision 042). Returns how many. */
    async eraseSpamOlderThan(days: number): Promise<{ erased: number; copiesGone: boolean }> {
      return guarded(async () => {
        const result = await db
          .deleteFrom("leads")
          .where("state", "in", fromStates("eraseSpam"))
          .where("received_at", "<", plus(nowSql(), -days * 86_400_000))
          .executeTakeFirst();
        const erased = Number(result.numDeletedRows);
        return { erased, copiesGone: erased === 0 || (await emptyWriteAheadLog()) };
      });
    },

    /**
     * At most one alert of a kind per interval, across every instance: the slot this caller may
     * send it in (the time is recorded), or undefined. A caller whose webhook then fails gives the
     * slot back (`releaseAlert`), so a failed POST never silences that alert for the interval.
     */
    async claimAlert(kind: string, intervalMs: number): Promise<AlertSlot | undefined> {
      return guarded(() =>
        writeTransaction(
          database,
          async (trx) => {
            const at = await clock(trx);
            const last = await trx
              .selectFrom("lead_alerts")
              .select("sent_at")
              .where("kind", "=", kind)
              .executeTakeFirst();
            const previous = last ? Number(last.sent_at) : null;
            if (previous !== null && at - previous < intervalMs) return undefined;
            if (last)
              await trx.updateTable("lead_alerts").set({ sent_at: at }).where("kind", "=", kind).execute();
            else await trx.insertInto("lead_alerts").values({ kind, sent_at: at }).execute();
            return { kind, at, previous };
          },
          `alert:${kind}`,
        ),
      );
    },

    /** The slot's alert was not delivered: the kind may be sent again at once (unless claimed since). */
    async releaseAlert({ kind, at, previous }: AlertSlot): Promise<void> {
      await guarded(async () => {
        const mine = (eb: ExpressionBuilder<LeadsDatabase, "lead_alerts">) =>
          eb.and([eb("kind", "=", kind), eb("sent_at", "=", at)]);
        if (previous === null) await db.deleteFrom("lead_alerts").where(mine).execute();
        else await db.updateTable("lead_alerts").set({ sent_at: previous }).where(mine).execute();
      });
    },

    /** Rows written as they are, skipping any whose id (or open fingerprint) is already there: re-running adds nothing. */
    async insertImported(rows: LeadsTable[]): Promise<number> {
      return guarded(() =>
        writeTransaction(database, async (trx) => {
          let inserted = 0;
          for (const row of rows) {
            const result = await trx
              .insertInto("leads")
              .values(row)
              .onConflict((oc) => oc.doNothing())
              .executeTakeFirst();
            inserted += Number(result.numInsertedOrUpdatedRows ?? 0);
          }
          return inserted;
        }),
      );
    },

    /**
     * Keeps this work (a hand-back of an uncalled claim) from being cut off: `close` waits for it,
     * so the CLI's end and a SIGTERM never leave a lead leased by a call that was never made.
     */
    finishBeforeClose(work: Promise<unknown>): void {
      const settled = work.catch(() => undefined).finally(() => unfinished.delete(settled));
      unfinished.add(settled);
    },

    async close(): Promise<void> {
      await Promise.all([...unfinished]);
      closed = true;
      if (reconnect) clearTimeout(reconnect);
      await database.close();
    },
  };
}

/**
 * Errors that mean "the database is not there" rather than "this query is wrong", by the driver's
 * code only (database.server.ts gives pg's own transport errors one): a message is never read, so
 * a query error whose text happens to say "connect" or "timeout" is not an outage.
 */
export function isConnectionError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== "string") return false;
  // Node's socket and file errors, PostgreSQL's connection, shutdown and resource classes (08, 57P,
  // 53; a server that stops answering surfaces as 08006, the client's own query deadline), SQLite's
  // I/O, full, read-only, damaged, and the SQLite worker gone. Not an outage (issue 40): one
  // statement that was slow on a live database (PostgreSQL's statement timeout 57014, SQLite busy
  // or locked past its 2 s wait, as behind a `forget`'s VACUUM): that request fails, the next ones
  // are tried, instead of every post being refused for the reconnect interval.
  if (/^E[A-Z]+$/.test(code)) return true;
  if (/^08|^57P|^53/.test(code)) return true;
  return /^SQLITE_(IOERR|FULL|CANTOPEN|READONLY|CORRUPT|NOTADB|PROTOCOL)/.test(code);
}
