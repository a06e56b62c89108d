import { randomUUID } from "node:crypto";

import { type ExpressionBuilder, type Kysely, type RawBuilder, sql } from "kysely";

import type { LeadRequest } from "~/lib/leads/request";
import type { SendResult } from "~/lib/leads/sink.server";
import { emailKey, fingerprintOf } from "~/lib/leads/fingerprint.server";
import { type RetryPolicy, retryDelayMs } from "~/lib/leads/backoff";
import {
  errorText,
  type LeadsDatabase,
  type LeadsTable,
  type OpenDatabase,
  type StoreErrorClass,
  storeError,
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

/** How long an erasure waits for SQLite to empty its write-ahead log (or to rewrite the file) before it says a copy remains. */
const ERASURE_CHECKPOINT_MS = 5_000;

/** An identical request delivered this recently is answered "sent" without a call (decision 026). */
export const DUPLICATE_WINDOW_MS = 10 * 60_000;

const DAY_MS = 86_400_000;

/** A lead as the store gives it: its row, with what the visitor asked as one `request`. */
export type Lead = Omit<
  Row,
  keyof LeadRequest | "emailKey" | "leaseToken" | "lastAttemptAt" | "spamSignals"
> & {
  state: LeadState;
  request: LeadRequest;
  /** Why it is held as spam (its signals); empty for every other lead. */
  spamSignals: string[];
};

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

export interface RetentionDays {
  /** Personal fields of a delivered lead, from its delivery; of an inbox lead, from its receipt. */
  delivered: number;
  /** Pending, dead and held leads, from their receipt. */
  undelivered: number;
  spam: number;
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
  /** A test's backoff jitter. */
  random?: () => number;
  /** How long to wait between attempts to reach a store that is down. */
  reconnectMs?: number;
  log?: (event: Record<string, unknown>) => void;
}

type Row = LeadsTable;

function toLead(row: Row): Lead {
  const { name, email, phone, company, website, companySize, industry, message } = row;
  const request = { name, email, phone, company, website, companySize, industry, message };
  const rest: Partial<Row> = { ...row };
  // What the visitor asked is `request`; the store's own bookkeeping stays with the store.
  for (const key of [...Object.keys(request), "emailKey", "leaseToken", "lastAttemptAt"])
    delete rest[key as keyof Row];
  const spamSignals = row.spamSignals ? row.spamSignals.split(",") : [];
  return { ...(rest as Omit<Row, "spamSignals">), state: row.state as LeadState, request, spamSignals };
}

export { emailKey };

/** What the visitor asked, as columns, and the address as it is compared. */
export const requestColumns = (request: LeadRequest) => ({ ...request, emailKey: emailKey(request.email) });

/** The personal fields once retention erased them. */
const ERASED_COLUMNS = requestColumns({
  name: "",
  email: "",
  phone: "",
  company: "",
  website: "",
  companySize: "",
  industry: "",
  message: "",
});

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

type Where = (
  eb: ExpressionBuilder<LeadsDatabase, "leads">,
) => ReturnType<ExpressionBuilder<LeadsDatabase, "leads">["and"]>;

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
  /** The time leases, due times and windows are measured by, computed by the statement that uses it. */
  const nowSql = (): Instant => (now ? sql<number>`cast(${now()} as bigint)` : databaseClock(engine));
  let status: StoreStatus = { engine, location: database.location, state: "connecting" };
  let reconnect: NodeJS.Timeout | undefined;
  let starting: Promise<StoreStatus> | undefined;
  let closed = false;
  /** Work that must reach the store before it closes (a claim handed back), awaited by `close`. */
  const unfinished = new Set<Promise<unknown>>();

  const markDown = (error: unknown) => {
    const wasDown = status.state === "unavailable";
    const reason = errorText(error);
    status = {
      engine,
      location: database.location,
      state: "unavailable",
      reason,
      reasonClass: storeError(error).errorClass,
    };
    // Each failed reconnect too: ops see it is still trying, and why.
    log({ event: wasDown ? "lead_store_still_unavailable" : "lead_store_unavailable", engine, reason });
    if (closed || reconnect) return;
    reconnect = setTimeout(() => {
      reconnect = undefined;
      void connect();
    }, reconnectMs);
    reconnect.unref();
  };

  /**
   * Connects and migrates; on failure says why, and tries again every `reconnectMs`. Coming back,
   * the store must take a write (a full disk still answers reads), or it stays down.
   */
  const connect = async (): Promise<StoreStatus> => {
    try {
      const wasDown = status.state === "unavailable";
      const applied = await migrateToLatest(db as unknown as Kysely<unknown>);
      if (wasDown)
        await writeTransaction(database, async (trx) => {
          await trx.insertInto("leadAlerts").values({ kind: "(write check)", sentAt: 0 }).execute();
          await trx.deleteFrom("leadAlerts").where("kind", "=", "(write check)").execute();
        });
      status = { engine, location: database.location, state: "ready" };
      log({ event: wasDown ? "lead_store_reconnected" : "lead_store_ready", engine, migrations: applied });
    } catch (error) {
      markDown(error);
    }
    return status;
  };

  /** Every operation: fails fast while the store is known to be down, and marks it down when an error says so (a busy store is not down). */
  const guarded = async <T>(work: () => Promise<T>): Promise<T> => {
    if (status.state !== "ready") throw new StoreUnavailableError(status.reason ?? status.state);
    try {
      return await work();
    } catch (error) {
      if (!storeError(error).down) throw error;
      markDown(error);
      throw new StoreUnavailableError(errorText(error));
    }
  };

  /**
   * A lease for one more attempt. A stored lead keeps the mark of a call that may have reached the
   * function (held, or `sending` with a lapsed lease after its call began): if this attempt then
   * fails or dies before its own call, the lead is held again, never pending (seed 9001).
   */
  const leaseFields = (at: Instant) => ({
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

  const changedOne = (result: { numUpdatedRows: bigint }) => Number(result.numUpdatedRows) === 1;

  const claimOf = (row: Row): Claim => ({ lead: toLead(row), token: row.leaseToken ?? "" });

  /** Leases the leads `where` names, each with its own token; PostgreSQL re-checks `where` on a row a waiting claim then sees. */
  const claim = async (trx: Kysely<LeadsDatabase>, where: Where): Promise<Claim[]> =>
    (await trx.updateTable("leads").set(leaseFields(nowSql())).where(where).returningAll().execute()).map(
      claimOf,
    );

  /** In `states`, or (if it says so) an attempt whose lease lapsed. */
  const claimableFrom =
    (states: readonly LeadState[], at: Instant, expiredLease = false): Where =>
    (eb) =>
      eb.or([
        eb("state", "in", states),
        ...(expiredLease ? [eb.and([eb("state", "=", "sending"), eb("leaseUntil", "<", at)])] : []),
      ]);

  /**
   * What an identical request meets, read once (PostgreSQL reads each statement anew: two reads
   * could see a lead open, then delivered, and admit it again under a new key). In order: a live
   * attempt (wait for it), a lead delivered or kept within the duplicate window, an open lead (this
   * request is its next attempt), or nothing (a new lead). A real request never matches spam.
   */
  const seen = async (trx: Kysely<LeadsDatabase>, fingerprint: string, held: boolean) => {
    const at = nowSql();
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
  };

  /**
   * Whether SQLite's files hold no copy of what was just erased: the write-ahead log emptied (a
   * reader of an older snapshot keeps old pages there, and the checkpoint answers "busy"), and
   * with `rewrite` the file rebuilt (`VACUUM`: free pages from before secure_delete), each tried
   * for `ERASURE_CHECKPOINT_MS`. PostgreSQL: docs/lead-store.md.
   */
  const noCopyLeft = async (rewrite = false): Promise<boolean> => {
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
  };

  /** Deletes (or, for retention of delivered and inbox leads, blanks) the leads `where` names. */
  const erase = async (where: Where, keepRow: boolean): Promise<number> => {
    const result = keepRow
      ? await db
          .updateTable("leads")
          .set({ ...ERASED_COLUMNS, fingerprint: "erased", requestId: null, erasedAt: nowSql() })
          .where(where)
          .where("erasedAt", "is", null)
          .executeTakeFirst()
      : await db.deleteFrom("leads").where(where).executeTakeFirst();
    return Number("numUpdatedRows" in result ? result.numUpdatedRows : result.numDeletedRows);
  };

  const get = (id: string): Promise<Lead | undefined> =>
    guarded(async () => {
      const row = await db.selectFrom("leads").selectAll().where("id", "=", id).executeTakeFirst();
      return row ? toLead(row) : undefined;
    });

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
      const held = spam !== undefined && spam.length > 0;
      return guarded(async () => {
        // PostgreSQL: the limit is asked outside the transaction (the limiter takes connections of
        // the same pool, which waiting transactions must not all hold), after a first look, so a
        // duplicate never costs a point and a race at most one. SQLite: inside, in memory.
        const limitFirst = engine === "postgres";
        if (limitFirst) {
          const first = await seen(db, fingerprint, held);
          if (first.kind !== "open") return first;
          const limit = await allow();
          if (!limit.allowed) return { kind: "limited", limit };
        }
        return writeTransaction(
          database,
          async (trx): Promise<Admission> => {
            const found = await seen(trx, fingerprint, held);
            if (found.kind !== "open") return found;
            if (!limitFirst) {
              const limit = await allow();
              if (!limit.allowed) return { kind: "limited", limit };
            }
            const at = nowSql();
            const values = { ...requestColumns(request), requestId: requestId ?? null };
            if (found.id !== undefined && !held) {
              // The open lead's next attempt: same row and key, with what the visitor typed this time.
              const where: Where = (eb) =>
                eb.and([eb("id", "=", found.id!), claimableFrom(fromStates("resend"), at, true)(eb)]);
              if (mode === "inbox") {
                await trx
                  .updateTable("leads")
                  .set({ ...values, state: "inbox", leaseUntil: null, leaseToken: null })
                  .where(where)
                  .execute();
                return { kind: "stored", id: found.id };
              }
              const [row] = await trx
                .updateTable("leads")
                .set({ ...values, ...leaseFields(at) })
                .where(where)
                .returningAll()
                .execute();
              // Taken meanwhile (a dispatcher, `leads retry`, a confirmation): its outcome is this visitor's too.
              return row ? { kind: "claimed", claim: claimOf(row) } : { kind: "in-flight", id: found.id };
            }
            const base = { id: randomUUID(), fingerprint, receivedAt: at, source: "form", ...values };
            const row = await trx
              .insertInto("leads")
              .values(
                held
                  ? { ...base, state: "spam", attempts: 0, spamSignals: spam.join(",") }
                  : mode === "inbox"
                    ? { ...base, state: "inbox", attempts: 0 }
                    : { ...base, ...leaseFields(at), attempts: 1, callStartedAt: null },
              )
              .returningAll()
              .executeTakeFirstOrThrow();
            return row.state === "sending"
              ? { kind: "claimed", claim: claimOf(row) }
              : { kind: "stored", id: row.id };
          },
          fingerprint,
        );
      });
    },

    /**
     * The holder's last word before its call: records that it begins, if this claim's lease is still
     * live, and renews the lease for the call. False: do not call.
     */
    beginCall: ({ lead, token }: Claim): Promise<boolean> =>
      guarded(async () => {
        const at = nowSql();
        const result = await db
          .updateTable("leads")
          .set({
            callStartedAt: sql<number>`coalesce(call_started_at, ${at})`,
            leaseUntil: plus(at, leaseMs),
          })
          .where("id", "=", lead.id)
          .where("state", "=", "sending")
          .where("leaseToken", "=", token)
          .where("leaseUntil", ">", at)
          .executeTakeFirst();
        return changedOne(result);
      }),

    /**
     * The holder's word, after `beginCall` failed, that its call never began (the store may yet
     * commit `beginCall`: a paused server wakes). The lead goes back as it was (held if an earlier
     * call may have reached the function, else pending and due now), the attempt uncounted. Only
     * this claim's token matches. False: the claim no longer held the lead.
     */
    releaseUncalled: ({ lead, token }: Claim): Promise<boolean> =>
      guarded(async () => {
        const wasHeld = lead.callStartedAt !== null;
        const result = await db
          .updateTable("leads")
          .set({
            state: wasHeld ? "possibly_delivered" : "pending",
            leaseUntil: null,
            leaseToken: null,
            callStartedAt: lead.callStartedAt,
            nextAttemptAt: wasHeld ? null : nowSql(),
            attempts: sql<number>`attempts - 1`,
          })
          .where("id", "=", lead.id)
          .where("state", "=", "sending")
          .where("leaseToken", "=", token)
          .executeTakeFirst();
        return changedOne(result);
      }),

    /**
     * What the call ended in (docs/lead-store.md): returns the lead's new state. A sure failure of a
     * lead that was held leaves it held: the earlier unknown call still stands.
     */
    recordOutcome: ({ lead, token }: Claim, sent: SendResult): Promise<LeadState> =>
      guarded(async () => {
        const at = nowSql();
        if (sent.ok) {
          await db
            .updateTable("leads")
            .set({
              state: "delivered",
              deliveredAt: at,
              leaseUntil: null,
              leaseToken: null,
              nextAttemptAt: null,
            })
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
        return row ? state : ((await get(lead.id))?.state ?? state);
      }),

    /** A person found a held lead arrived: delivered, with no call. False: it was not held. */
    resolve: (id: string): Promise<boolean> =>
      guarded(async () => {
        const result = await db
          .updateTable("leads")
          .set({ state: "delivered", deliveredAt: nowSql(), lastReason: "resolved" })
          .where("id", "=", id.trim())
          .where("state", "in", fromStates("resolve"))
          .executeTakeFirst();
        return changedOne(result);
      }),

    get,

    /** Waits for another attempt at the same lead (any instance) to end, reading its row (one statement) every `pollMs`. */
    async awaitOutcome(id: string, timeoutMs: number, pollMs = 250): Promise<LeadState | "unknown"> {
      // How long the visitor waits: this process's clock; whether the lease ran out: the database's.
      const until = performance.now() + timeoutMs;
      for (;;) {
        const row = await guarded(() =>
          db
            .selectFrom("leads")
            .select([
              "state",
              sql<number>`case when lease_until < ${nowSql()} then 1 else 0 end`.as("lapsed"),
            ])
            .where("id", "=", id)
            .executeTakeFirst(),
        );
        if (!row) return "unknown";
        if (row.state !== "sending") return row.state as LeadState;
        if (performance.now() > until || Number(row.lapsed) === 1) return "unknown";
        await new Promise((resolve) => setTimeout(resolve, pollMs));
      }
    },

    /** Leases the pending leads that are due, oldest first; another instance skips the ones taken. */
    claimDue: (limit: number): Promise<Claim[]> =>
      guarded(() =>
        claim(db, (eb) =>
          eb(
            "id",
            "in",
            eb
              .selectFrom("leads")
              .select("id")
              .where("state", "in", fromStates("dispatch"))
              .where("nextAttemptAt", "<=", nowSql())
              .orderBy("nextAttemptAt")
              .limit(limit)
              .$if(engine === "postgres", (query) => query.forUpdate().skipLocked()),
          ),
        ),
      ),

    /** Leases one lead for a person's `retry`, just before its call, if it is still in one of these states. */
    async claimIfIn(id: string, states: readonly LeadState[]): Promise<Claim | undefined> {
      const allowed = fromStates("retry");
      if (!states.every((state) => allowed.includes(state)))
        throw new Error(
          `a person's retry takes leads from ${allowed.join(", ")} only, not ${states.join(", ")}`,
        );
      return guarded(
        async () => (await claim(db, (eb) => eb.and([eb("id", "=", id), eb("state", "in", states)])))[0],
      );
    },

    /** Attempts whose lease ran out: held if their call had begun, else pending and due now. One statement. */
    async expireLeases(): Promise<{ held: string[]; returned: string[] }> {
      return guarded(async () => {
        const at = nowSql();
        const uncalled = sql`call_started_at is null`;
        const rows = await db
          .updateTable("leads")
          .set({
            state: sql<string>`case when ${uncalled} then 'pending' else 'possibly_delivered' end`,
            nextAttemptAt: sql<number | null>`case when ${uncalled} then ${at} else null end`,
            attempts: sql<number>`case when ${uncalled} then attempts - 1 else attempts end`,
            lastReason: sql<string | null>`case when ${uncalled} then last_reason else 'unknown' end`,
            leaseUntil: null,
            leaseToken: null,
          })
          .where("state", "=", "sending")
          .where("leaseUntil", "<", at)
          .returning(["id", "state"])
          .execute();
        const ids = (state: LeadState) => rows.filter((row) => row.state === state).map((row) => row.id);
        return { held: ids("possibly_delivered"), returned: ids("pending") };
      });
    },

    list: (states: readonly LeadState[], email?: string): Promise<Lead[]> =>
      guarded(async () => {
        const rows = await db
          .selectFrom("leads")
          .selectAll()
          .where("state", "in", states)
          .$if(email !== undefined, (query) => query.where("emailKey", "=", emailKey(email ?? "")))
          .orderBy("receivedAt")
          .orderBy("id")
          .execute();
        return rows.map(toLead);
      }),

    counts: () =>
      guarded(async () => {
        const rows = await db
          .selectFrom("leads")
          .select((eb) => [
            "state",
            eb.fn.countAll<number>().as("count"),
            sql<number | null>`${nowSql()} - min(received_at)`.as("age"),
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
      }),

    /**
     * GDPR art. 17: every lead of this address erased, and whether no copy is left on disk (SQLite:
     * the file rewritten and its log emptied; run again, it finishes what a reader kept).
     */
    forget: (email: string) =>
      guarded(async () => {
        const erased = await erase((eb) => eb.and([eb("emailKey", "=", emailKey(email))]), false);
        return { erased, copiesGone: await noCopyLeft(true) };
      }),

    /**
     * Retention (docs/lead-store.md), one pass: the personal fields of delivered leads (from their
     * delivery) and inbox leads (from their receipt); pending, dead and held leads, and spam, row
     * and all (from their receipt). Ends with SQLite's checkpoint every time, so a copy a reader kept
     * in the log last hour is gone this hour.
     */
    eraseExpired: (days: RetentionDays) =>
      guarded(async () => {
        const older =
          (states: readonly LeadState[], column: "receivedAt" | "deliveredAt", ageDays: number): Where =>
          (eb) =>
            eb.and([eb("state", "in", states), eb(column, "<", plus(nowSql(), -ageDays * DAY_MS))]);
        const delivered =
          (await erase(older(["delivered"], "deliveredAt", days.delivered), true)) +
          (await erase(older(["inbox"], "receivedAt", days.delivered), true));
        const undelivered = await erase(
          older(fromStates("eraseUndelivered"), "receivedAt", days.undelivered),
          false,
        );
        const spam = await erase(older(fromStates("eraseSpam"), "receivedAt", days.spam), false);
        const erased = delivered + undelivered + spam;
        return { delivered, undelivered, spam, erased, copiesGone: await noCopyLeft() };
      }),

    /** The leads held as spam that this id or e-mail address (any case, NFC) names, oldest first. */
    spamMatching: (idOrEmail: string): Promise<Lead[]> =>
      guarded(async () => {
        const rows = await db
          .selectFrom("leads")
          .selectAll()
          .where("state", "=", "spam")
          .where((eb) => eb.or([eb("id", "=", idOrEmail.trim()), eb("emailKey", "=", emailKey(idOrEmail))]))
          .orderBy("receivedAt")
          .orderBy("id")
          .execute();
        return rows.map(toLead);
      }),

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
            const spam: Where = (eb) =>
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
            if (mode === "inbox") {
              const result = await trx
                .updateTable("leads")
                .set({ state: "inbox" })
                .where(spam)
                .executeTakeFirst();
              return Number(result.numUpdatedRows) === 1 ? { kind: "inbox" } : { kind: "not-spam" };
            }
            // Gone meanwhile: a `forget` or the spam's erasure, which take no fingerprint lock.
            const [claimed] = await claim(trx, spam);
            return claimed ? { kind: "claimed", claim: claimed } : { kind: "not-spam" };
          },
          found.fingerprint,
        );
      });
    },

    /**
     * At most one alert of a kind per interval, across every instance: the slot this caller may send
     * it in, or undefined. One upsert: of two callers at once, one gets it.
     */
    claimAlert: (kind: string, intervalMs: number): Promise<AlertSlot | undefined> =>
      guarded(async () => {
        const row = await db
          .insertInto("leadAlerts")
          .values({ kind, sentAt: nowSql() })
          .onConflict((oc) =>
            oc
              .column("kind")
              .doUpdateSet({ sentAt: (eb) => eb.ref("excluded.sentAt") })
              .where("leadAlerts.sentAt", "<=", sql<number>`excluded.sent_at - ${intervalMs}`),
          )
          .returning("sentAt")
          .executeTakeFirst();
        return row ? { kind, at: Number(row.sentAt) } : undefined;
      }),

    /** The slot's alert was not delivered (its webhook failed): the kind may be sent again at once. */
    async releaseAlert({ kind, at }: AlertSlot): Promise<void> {
      await guarded(() =>
        db.deleteFrom("leadAlerts").where("kind", "=", kind).where("sentAt", "=", at).execute(),
      );
    },

    /** Rows written as they are, skipping any whose id (or open fingerprint) is already there: re-running adds nothing. */
    insertImported: (rows: LeadsTable[]): Promise<number> =>
      guarded(() =>
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
      ),

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
