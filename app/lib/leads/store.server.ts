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
 * Every lead, kept before anything else happens, and what became of it (decision 032), for both
 * engines: each rule that must hold across instances is decided here, by the database. The rules
 * are told in docs/lead-store.md; the transitions are the table in `lead-states.ts`.
 */

export { leadStates, type LeadState, OPEN_STATES } from "~/lib/leads/lead-states";

/** How long an erasure waits for SQLite's write-ahead log to be emptied before it says a copy remains. */
const ERASURE_CHECKPOINT_MS = 5_000;

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
  /** The spam signals that hold the submission as spam (decision 042): kept, never sent. */
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
  /** A test's clock. Unset (always, outside tests): the database's, which every instance shares. */
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
    lastReason: row.last_reason,
    lastStatus: row.last_status === null ? null : Number(row.last_status),
    deliveredAt: row.delivered_at === null ? null : Number(row.delivered_at),
    erasedAt: row.erased_at === null ? null : Number(row.erased_at),
    spamSignals: row.spam_signals ? row.spam_signals.split(",") : [],
  };
}

export { emailKey };

/** A lead's eight fields once retention erased them. */
const ERASED_REQUEST: LeadRequest = {
  name: "",
  email: "",
  phone: "",
  company: "",
  website: "",
  companySize: "",
  industry: "",
  message: "",
};

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

/** A time as the database computes it, in milliseconds since the epoch, inside a statement. */
type Instant = RawBuilder<number>;

/**
 * The database's clock (milliseconds since the epoch): PostgreSQL's, whichever instance asks, so an
 * instance whose clock runs ahead cannot take a live lease; on SQLite, the machine's.
 */
const databaseClock = (engine: OpenDatabase["engine"]): Instant =>
  engine === "postgres"
    ? sql<number>`(extract(epoch from clock_timestamp()) * 1000)::bigint`
    : sql<number>`cast(unixepoch('subsec') * 1000 as integer)`;

/** `at` moved by `ms` (both in milliseconds), in SQL. */
const plus = (at: Instant, ms: number): Instant => sql<number>`${at} + ${ms}`;

/**
 * What an identical request meets: a lead being sent (a live lease), or one delivered or kept within
 * the duplicate window. Undefined: a new lead, or the next attempt of an open one.
 */
async function earlier(
  db: Kysely<LeadsDatabase>,
  fingerprint: string,
  at: Instant,
  spam = false,
): Promise<Extract<Admission, { kind: "duplicate" | "in-flight" }> | undefined> {
  // A real resend of a lead held as spam is never a duplicate of it: it goes on to be sent.
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
  /** The time leases, due times and windows are measured by, computed by the statement that uses it. */
  const nowSql = (): Instant => (now ? sql<number>`cast(${now()} as bigint)` : databaseClock(engine));
  /** The same time as a number (one round trip). */
  const clock = async (): Promise<number> =>
    Number((await sql<{ now: number }>`select ${nowSql()} as now`.execute(db)).rows[0]!.now);
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
   * The same for a stored lead, which keeps the mark of a call that may have reached the function
   * (held, or `sending` with a lapsed lease after its call began): if this attempt then dies before
   * its own call, the lead is held again, never pending (the history test, seed 9001).
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
   * Whether SQLite's write-ahead log could be emptied (a reader of an older snapshot keeps the old
   * pages there, and the checkpoint answers "busy"): tried for `ERASURE_CHECKPOINT_MS`. PostgreSQL:
   * docs/lead-store.md.
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
   * The one claim rule: a claim names the states it may take (and, if it says so, an attempt whose
   * lease lapsed). PostgreSQL re-checks it on the row a waiting claim then sees: of two attempts
   * one gets the lead, and none takes one delivered meanwhile (issue 40).
   */
  const claimableFrom =
    (states: readonly LeadState[], at: Instant, expiredLease = false) =>
    (eb: ExpressionBuilder<LeadsDatabase, "leads">) =>
      eb.or([
        eb("state", "in", states),
        ...(expiredLease ? [eb.and([eb("state", "=", "sending"), eb("lease_until", "<", at)])] : []),
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
        .where(claimableFrom(states, at))
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
     * A valid request arrives: a duplicate, in flight (wait for it), the next attempt of its open
     * lead, or a new lead, committed before any call. One transaction, locked per fingerprint.
     */
    admit(request: LeadRequest, { mode, requestId, allow, spam }: AdmitOptions): Promise<Admission> {
      const fingerprint = fingerprintOf(request);
      return guarded(async () => {
        // PostgreSQL: the limit is asked outside the transaction (the limiter takes connections of
        // the same pool, which waiting transactions must not all hold), after the duplicate check, so
        // a duplicate never costs a point and a race at most one. SQLite: inside, in memory.
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
              // The open lead's next attempt: same row and key, with what the visitor typed this time.
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
                .where(claimableFrom(fromStates("resend"), at, true))
                .returningAll()
                .executeTakeFirst();
              // Taken meanwhile (a dispatcher, `leads retry`): its attempt is this visitor's too.
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
     * The holder's last word before its call: records that it begins, if this claim's lease is still
     * live, and renews the lease for the call. False: do not call.
     */
    async beginCall({ lead, token }: Claim): Promise<boolean> {
      return guarded(async () => {
        const at = nowSql();
        const result = await db
          .updateTable("leads")
          .set({
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
     * The holder's word, after `beginCall` failed, that its call never began (the store may yet
     * commit `beginCall`: a paused server wakes). The lead goes back as it was (held if an earlier
     * call may have reached the function, else pending and due now), the attempt uncounted. Only
     * this claim's token matches. False: the claim no longer held the lead.
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

    /** What the call ended in (docs/lead-store.md): returns the lead's new state. */
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
        // The lease lapsed and another attempt decided meanwhile: its decision stands.
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
      // How long the visitor waits: this process's clock; whether the lease ran out: the database's.
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

    /** Leases one lead for a person's `retry`, just before its call, if it is still in one of these states. */
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

    /** Attempts whose lease ran out: held if their call had begun, else pending and due now. */
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
        const count = (state: LeadState) => Number(of(state)?.count ?? 0);
        const oldest = of("pending")?.oldest;
        return {
          pending: count("pending"),
          possiblyDelivered: count("possibly_delivered"),
          dead: count("dead"),
          sending: count("sending"),
          inbox: count("inbox"),
          spam: count("spam"),
          oldestPendingAgeSeconds: oldest == null ? 0 : Math.max(0, Math.round((at - Number(oldest)) / 1000)),
        };
      });
    },

    /** GDPR art. 17: every lead of this address erased; and whether no copy is left on disk. */
    async forget(email: string): Promise<{ erased: number; copiesGone: boolean }> {
      return guarded(async () => {
        const result = await db
          .deleteFrom("leads")
          .where("email_key", "=", emailKey(email))
          .executeTakeFirst();
        // VACUUM: free pages from before secure_delete may still hold copies.
        if (engine === "sqlite") await sql`vacuum`.execute(db);
        return { erased: Number(result.numDeletedRows), copiesGone: await emptyWriteAheadLog() };
      });
    },

    /** Retention: the personal fields of leads confirmed more than `days` ago (the row stays). */
    async eraseDeliveredOlderThan(days: number): Promise<{ erased: number; copiesGone: boolean }> {
      return guarded(async () => {
        const at = nowSql();
        const result = await db
          .updateTable("leads")
          .set({
            ...requestColumns(ERASED_REQUEST),
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
     * A person says this lead held as spam is real: an attempt (or, without a function, an inbox
     * lead), under the fingerprint's lock, so one of two releases gets it. An identical open lead
     * keeps that role: the spam copy is not released beside it.
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
            const spam = (eb: ExpressionBuilder<LeadsDatabase, "leads">) =>
              eb.and([eb("id", "=", id), eb("state", "in", fromStates("releaseSpam"))]);
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
            const row = await trx
              .updateTable("leads")
              .set(
                mode === "inbox"
                  ? { state: "inbox" }
                  : { ...leaseFields(nowSql()), attempts: sql<number>`attempts + 1` },
              )
              .where(spam)
              .returningAll()
              .executeTakeFirst();
            // Gone meanwhile: a `forget` or the spam's erasure, which take no fingerprint lock.
            if (!row) return { kind: "not-spam" };
            return mode === "inbox" ? { kind: "inbox" } : { kind: "claimed", claim: claimOf(row) };
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
     * At most one alert of a kind per interval, across every instance: the slot this caller may send
     * it in, or undefined. One upsert: of two callers at once, one gets it.
     */
    async claimAlert(kind: string, intervalMs: number): Promise<AlertSlot | undefined> {
      return guarded(async () => {
        const row = await db
          .insertInto("lead_alerts")
          .values({ kind, sent_at: nowSql() })
          .onConflict((oc) =>
            oc
              .column("kind")
              .doUpdateSet({ sent_at: (eb) => eb.ref("excluded.sent_at") })
              .where("lead_alerts.sent_at", "<=", sql<number>`excluded.sent_at - ${intervalMs}`),
          )
          .returning("sent_at")
          .executeTakeFirst();
        return row ? { kind, at: Number(row.sent_at) } : undefined;
      });
    },

    /** The slot's alert was not delivered (its webhook failed): the kind may be sent again at once. */
    async releaseAlert({ kind, at }: AlertSlot): Promise<void> {
      await guarded(() =>
        db.deleteFrom("lead_alerts").where("kind", "=", kind).where("sent_at", "=", at).execute(),
      );
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

    /** Work (a hand-back of an uncalled claim) that `close` waits for: the CLI's end and a SIGTERM too. */
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
 * Errors that mean "the database is not there", by the driver's code only (never a message): Node's
 * socket and file errors, PostgreSQL's classes 08, 57P and 53, SQLite's I/O, full, read-only and
 * damaged, the SQLite worker gone. A slow statement (57014, SQLITE_BUSY) is not an outage.
 */
export function isConnectionError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== "string") return false;
  if (/^E[A-Z]+$/.test(code)) return true;
  if (/^08|^57P|^53/.test(code)) return true;
  return /^SQLITE_(IOERR|FULL|CANTOPEN|READONLY|CORRUPT|NOTADB|PROTOCOL)/.test(code);
}
