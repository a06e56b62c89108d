import { resolve } from "node:path";

import {
  CamelCasePlugin,
  type ColumnType,
  type Insertable,
  Kysely,
  PostgresDialect,
  type PostgresPool,
  type PostgresPoolClient,
  sql,
} from "kysely";
import pg from "pg";

import type { LeadRequest } from "~/lib/leads/sink.server";
import { SqliteWorkerDialect } from "~/lib/leads/sqlite-worker.server";

/** The lead store's engines (SQLite, PostgreSQL) behind one Kysely query builder (decision 032). */

export type Engine = "sqlite" | "postgres";

/** Times: milliseconds since the epoch (BIGINT). Columns are the snake_case of these names. */
export interface LeadsTable {
  id: string;
  /** Same e-mail (any case) and message: the same lead (decision 026). */
  fingerprint: string;
  state: string;
  receivedAt: number;
  /** The validated request as JSON (`jsonb` on PostgreSQL, text on SQLite); null once erased. */
  request: ColumnType<LeadRequest | string | null, string | null, string | null>;
  /** The request's `email` as it is compared (`emailKey`): what `forget` matches. */
  emailKey: string;
  requestId: string | null;
  source: string;
  attempts: number;
  nextAttemptAt: number | null;
  leaseUntil: number | null;
  leaseToken: string | null;
  /** Set once a call of the lead may have reached the function (a lapsed lease then holds it). */
  callStartedAt: number | null;
  lastAttemptAt: number | null;
  lastReason: string | null;
  lastStatus: number | null;
  deliveredAt: number | null;
  erasedAt: number | null;
  /** Why a submission is held as spam: its signals, comma-separated (decision 042). */
  spamSignals?: string | null;
}

export type NewLead = Insertable<LeadsTable>;

export interface LeadsDatabase {
  leads: LeadsTable;
  leadAlerts: { kind: string; sentAt: number };
}

export interface OpenDatabase {
  db: Kysely<LeadsDatabase>;
  engine: Engine;
  /** The PostgreSQL pool (the shared rate limiter uses it too). */
  pool?: pg.Pool;
  /** Where the leads are, without a password: for the startup line and /healthz. */
  location: string;
}

export interface DatabaseConfig {
  databaseUrl?: string | undefined;
  file: string;
  /** How long a request waits for a free connection or another program's write lock: busy, not down. */
  busyMs?: number;
}

export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return "postgres://(unparsable)";
  }
}

// BIGINT (OID 20) and COUNT(*) come back from pg as strings; every bigint here is a time in
// milliseconds or a count, far below 2^53.
const pgTypes = new pg.TypeOverrides();
pgTypes.setTypeParser(20, Number);

/** Gives a codeless failure of `work` a code (never a programming error: those stay bugs). */
async function coded<T>(work: () => Promise<T>, deadlineMs: number, code: string, atDeadline: string) {
  const started = performance.now();
  try {
    return await work();
  } catch (error) {
    const codeless = error instanceof Error && typeof (error as { code?: unknown }).code !== "string";
    if (codeless && !(error instanceof TypeError || error instanceof RangeError))
      Object.assign(error, { code: performance.now() - started >= deadlineMs ? atDeadline : code });
    throw error;
  }
}

/** Waited `busyMs` for one of the pool's connections, all in use: the store is busy, not down. */
export const POOL_BUSY = "POOL_BUSY";

/**
 * The pool as Kysely sees it, with a code on every error: pg's own carry only a message, so the
 * store could not tell them apart. Only the wait for a busy pool's connection lasts `busyMs`.
 */
export function codedPool(
  pool: pg.Pool,
  { busyMs, queryMs }: { busyMs: number; queryMs: number },
): PostgresPool {
  const lost = new WeakSet<pg.PoolClient>();
  // A lost connection emits 'error' on its client, which the pool hears only while it is idle:
  // unheard, it ends the process. So every client is heard from 'connect' on (a server shutting
  // down sends ReadyForQuery and FATAL 57P01 in one packet, before any caller runs).
  pool.on("connect", (client) =>
    client.on("error", (error) => {
      lost.add(client);
      console.error(JSON.stringify({ event: "lead_store_connection_lost", error: errorText(error) }));
    }),
  );
  const wrap = (client: pg.PoolClient): PostgresPoolClient => {
    // A query that failed without the server's answer leaves the connection in a state nobody
    // knows: closed on release, so a hung server that wakes mid-transaction rolls it back. (A
    // lone statement may still commit then: see releaseUncalled.)
    let broken = false;
    return {
      // Kysely cancels a query by its backend's pid (pg has it, its types do not say so).
      get processID() {
        return (client as { processID?: number }).processID;
      },
      // Kysely sends SQL text only (no cursor: the store streams nothing).
      query: ((text: string, parameters?: unknown[]) =>
        coded(() => client.query(text, parameters), queryMs, "08006", "ETIMEDOUT").catch((error: unknown) => {
          if (!(error instanceof pg.DatabaseError)) broken = true;
          throw error;
        })) as unknown as PostgresPoolClient["query"],
      release: (destroy?: boolean) => client.release(destroy || broken || lost.has(client)),
    };
  };
  return {
    Client: pg.Client,
    options: pool.options,
    connect: async () => wrap(await coded(() => pool.connect(), busyMs, "08001", POOL_BUSY)),
    end: () => pool.end(),
  };
}

/** How long a new connection to PostgreSQL may take: past it, the database is not there. */
const CONNECT_TIMEOUT_MS = 3_000;

class QuickConnectClient extends pg.Client {
  constructor(config?: pg.ClientConfig) {
    super({ ...config, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  }
}

/** snake_case in SQL, camelCase here; the request document's own keys stay as they are. */
const camelCase = new CamelCasePlugin({ maintainNestedObjectKeys: true });

function openPostgres(url: string, busyMs: number): OpenDatabase {
  const queryTimeoutMs = busyMs + 1_000;
  const pool = new pg.Pool({
    Client: QuickConnectClient,
    connectionString: url,
    max: 10,
    connectionTimeoutMillis: busyMs,
    idleTimeoutMillis: 30_000,
    statement_timeout: busyMs,
    query_timeout: queryTimeoutMs,
    application_name: "agency-site",
    types: pgTypes,
  });
  // An idle connection the server closed must not end the process: the pool drops it (logged above).
  pool.on("error", () => {});
  const db = new Kysely<LeadsDatabase>({
    dialect: new PostgresDialect({ pool: codedPool(pool, { busyMs, queryMs: queryTimeoutMs }) }),
    plugins: [camelCase],
  });
  return { db, engine: "postgres", pool, location: redactUrl(url) };
}

export function openDatabase({ databaseUrl, file, busyMs = 10_000 }: DatabaseConfig): OpenDatabase {
  // A statement waiting on a lock is busy too: it may wait as long as a request waits for a connection.
  if (databaseUrl) return openPostgres(databaseUrl, busyMs);
  const path = resolve(file);
  const db = new Kysely<LeadsDatabase>({
    dialect: new SqliteWorkerDialect({ file: path, busyTimeoutMs: busyMs }),
    plugins: [camelCase],
  });
  return { db, engine: "sqlite", location: path };
}

/** What /healthz may say of a store error: a class, never the driver's text (it names host and user). */
export type StoreErrorClass = "refused" | "unreachable" | "timeout" | "full" | "corrupt" | "error";

/**
 * Every store error by its driver's code alone, first match: its class, and whether the store is
 * down (it reconnects) or only slow or busy for this request.
 */
const STORE_ERRORS: [RegExp, StoreErrorClass, "down" | "busy"][] = [
  [/^POOL_BUSY$|^57014$|^55P03$|^SQLITE_(BUSY|LOCKED)/, "timeout", "busy"],
  [
    /^(ECONNREFUSED|EACCES|EPERM|EROFS)$|^28|^3D000$|^53300$|^SQLITE_(CANTOPEN|READONLY|PERM|AUTH)/,
    "refused",
    "down",
  ],
  [/^(ETIMEDOUT|ESOCKETTIMEDOUT)$/, "timeout", "down"],
  [/^(ENOSPC|EDQUOT)$|^53100$|^SQLITE_FULL/, "full", "down"],
  [/^SQLITE_(CORRUPT|NOTADB)|^XX00[12]$/, "corrupt", "down"],
  [/^E[A-Z]+$|^08|^57P|^53|^SQLITE_(IOERR|PROTOCOL)/, "unreachable", "down"],
];

/** An error without a known code is neither down nor classed: a bug, or one request's. */
export function storeError(error: unknown): { errorClass: StoreErrorClass; down: boolean } {
  const code = (error as { code?: unknown } | null)?.code;
  const row = typeof code === "string" ? STORE_ERRORS.find(([pattern]) => pattern.test(code)) : undefined;
  return row ? { errorClass: row[1], down: row[2] === "down" } : { errorClass: "error", down: false };
}

/** An error's code and a short message: a driver's message may carry a query. */
export function errorText(error: unknown): string {
  if (error && typeof error === "object" && "code" in error && typeof error.code === "string") {
    const message = error instanceof Error ? error.message.slice(0, 160) : "";
    return message ? `${error.code}: ${message}` : error.code;
  }
  return error instanceof Error ? error.message.slice(0, 200) : String(error);
}

/**
 * One write transaction (Kysely's): IMMEDIATE on SQLite; on PostgreSQL `lockKey` takes an advisory
 * lock, so every instance deciding about the same lead waits for the one before it.
 */
export async function writeTransaction<T>(
  { db, engine }: Pick<OpenDatabase, "db" | "engine">,
  work: (trx: Kysely<LeadsDatabase>) => Promise<T>,
  lockKey?: string,
): Promise<T> {
  return db.transaction().execute(async (trx) => {
    if (engine === "postgres" && lockKey !== undefined)
      await sql`select pg_advisory_xact_lock(hashtext(${lockKey}))`.execute(trx);
    return work(trx);
  });
}
