import { closeSync, openSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname } from "node:path";
import { Worker } from "node:worker_threads";

import {
  CompiledQuery,
  type DatabaseConnection,
  type DialectAdapter,
  type Driver,
  type QueryResult,
  SqliteAdapter,
} from "kysely";
import { BaseSqliteDialect } from "kysely-generic-sqlite";

import { ensureDirectorySync } from "~/lib/files.server";

/**
 * Kysely's SQLite dialect with better-sqlite3 on a worker thread (decision 032: on the server's
 * thread, every statement and fsync would stop every other request).
 */

export interface SqliteWorkerConfig {
  /** The database file: created 0600 (with its folder) before SQLite opens it. */
  file: string;
  /** How long a write waits for another process's write lock (the CLI's) before SQLITE_BUSY. */
  busyTimeoutMs?: number;
  /** Called with every worker started (tests use it to end one abruptly). */
  onWorker?: (worker: Worker) => void;
}

/**
 * The worker's program, run with `eval: true` (the server, the CLI and Remix's build are three
 * bundles, none of which would carry a worker file along). It answers each request synchronously:
 * queueing through promises cost the POST's p99 (docs/performance.md).
 */
const WORKER_SOURCE = String.raw`
"use strict";
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.driverPath);

// A failed open ends the worker, which closes what it opened.
function open() {
  const db = new Database(workerData.file);
  // WAL: readers never block writes. FULL: a lead survives a power cut. secure_delete: erased
  // content is zeroed. busy_timeout: the CLI's write lock makes a write wait, not fail.
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = FULL");
  db.pragma("secure_delete = ON");
  db.pragma("busy_timeout = " + Number(workerData.busyTimeoutMs));
  return db;
}

let db;
// Prepared statements by SQL text, least recently used first (a Map keeps insertion order).
const statements = new Map();
function prepare(sql) {
  const statement = statements.get(sql) ?? db.prepare(sql);
  statements.delete(sql);
  if (statements.size >= 100) statements.delete(statements.keys().next().value);
  statements.set(sql, statement);
  return statement;
}

// As Kysely's SqliteConnection: a statement that returns rows (a select, or "returning") is read.
function query(sql, parameters) {
  const statement = prepare(sql);
  if (statement.reader) return { rows: statement.all(parameters) };
  const { changes, lastInsertRowid } = statement.run(parameters);
  return { rows: [], numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid) };
}

parentPort.on("message", ({ id, type, sql, parameters }) => {
  try {
    if (type === "execute") return parentPort.postMessage({ id, result: query(sql, parameters) });
    if (type === "open") db = open();
    else {
      statements.clear();
      db.close();
    }
    parentPort.postMessage({ id });
  } catch ({ name, code, message }) {
    parentPort.postMessage({ id, error: { name, code, message } });
  }
});
`;

/** The worker stopped: a lost connection, coded like Node's socket errors (the store reads so). */
export const WORKER_EXITED = "ESQLITEWORKER";

const lostConnection = () =>
  Object.assign(new Error("The SQLite connection is lost: its worker stopped"), { code: WORKER_EXITED });

let driverPath: string | undefined;
/** better-sqlite3's entry, resolved as an import from this module would be. */
const resolveDriver = () => (driverPath ??= createRequire(import.meta.url).resolve("better-sqlite3"));

type Answer = { result?: QueryResult<unknown>; error?: { name: string; code?: string; message: string } };

/**
 * A worker with the file open, and `ask`. Once the thread stopped, every request fails as a lost
 * connection. Only a worker with a request under way keeps the process alive.
 */
async function startWorker({ file, busyTimeoutMs = 2_000, onWorker }: SqliteWorkerConfig) {
  ensureDirectorySync(dirname(file));
  // Personal data: the server's user only (SQLite gives -wal and -shm the file's permissions).
  closeSync(openSync(file, "a", 0o600));
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { driverPath: resolveDriver(), file, busyTimeoutMs },
  });
  worker.unref();
  const waiting = new Map<number, { resolve: (answer: Answer) => void; reject: (error: Error) => void }>();
  let lastId = 0;
  let stopped = false;
  worker.on("message", ({ id, ...answer }: Answer & { id: number }) => waiting.get(id)?.resolve(answer));
  // An error the program did not catch ends the thread: its exit fails what waits.
  worker.on("error", () => undefined);
  worker.once("exit", () => {
    stopped = true;
    for (const { reject } of waiting.values()) reject(lostConnection());
  });
  onWorker?.(worker);
  const ask = async (request: { type: "open" | "execute" | "close"; sql?: string; parameters?: unknown }) => {
    if (stopped) throw lostConnection();
    const id = ++lastId;
    if (waiting.size === 0) worker.ref();
    const { result, error } = await new Promise<Answer>((resolve, reject) => {
      waiting.set(id, { resolve, reject });
      worker.postMessage({ ...request, id });
    }).finally(() => {
      waiting.delete(id);
      if (waiting.size === 0) worker.unref();
    });
    if (error) throw Object.assign(new Error(error.message), error);
    return result;
  };
  try {
    await ask({ type: "open" });
  } catch (error) {
    await worker.terminate();
    throw error;
  }
  return { worker, ask, stopped: () => stopped };
}

class SqliteWorkerDriver implements Driver {
  readonly #config: SqliteWorkerConfig;
  #current: Awaited<ReturnType<typeof startWorker>> | undefined;
  #destroyed = false;

  constructor(config: SqliteWorkerConfig) {
    this.#config = config;
  }

  // The one connection, for every caller in turn. Never a new worker inside it (mid-transaction the
  // rest would run outside): a lost worker fails every statement until the next acquisition.
  readonly #connection: DatabaseConnection = {
    executeQuery: async <R>({ sql, parameters }: CompiledQuery) => {
      if (!this.#current) throw lostConnection();
      return (await this.#current.ask({ type: "execute", sql, parameters })) as QueryResult<R>;
    },
    streamQuery: () => {
      throw new Error("The lead store does not stream SQLite queries");
    },
  };

  // Opened on first use: an unwritable folder is a store unavailable (and retried), not a failed start.
  async init(): Promise<void> {
    this.#current = await startWorker(this.#config);
    if (this.#destroyed) await this.destroy();
  }

  // One caller at a time (Kysely takes turns for SQLite's adapter); a stopped worker is replaced.
  async acquireConnection(): Promise<DatabaseConnection> {
    if (!this.#destroyed && (!this.#current || this.#current.stopped())) {
      this.#current = undefined;
      await this.init();
    }
    return this.#connection;
  }

  // Immediate: the write lock first, so two processes never both read, then collide writing.
  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw("begin immediate"));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw("commit"));
  }

  // SQLite rolls back by itself on SQLITE_FULL and I/O errors, and a stopped worker took its
  // transaction along: then the error that ended it must reach the caller, not the rollback's own.
  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    try {
      await connection.executeQuery(CompiledQuery.raw("rollback"));
    } catch (error) {
      const nothingOpen =
        (error as { code?: unknown }).code === WORKER_EXITED ||
        /no transaction is active/.test(error instanceof Error ? error.message : "");
      if (!nothingOpen) throw error;
    }
  }

  async releaseConnection(): Promise<void> {}

  async destroy(): Promise<void> {
    this.#destroyed = true;
    const current = this.#current;
    if (!current) return;
    // Referenced until it has ended, or a program awaiting this close would exit with it unsettled.
    current.worker.ref();
    await current.ask({ type: "close" }).catch(() => undefined);
    await current.worker.terminate();
  }
}

export class SqliteWorkerDialect extends BaseSqliteDialect {
  constructor(config: SqliteWorkerConfig) {
    super(() => new SqliteWorkerDriver(config));
  }

  // SQLite's DDL is transactional: claimed, so a migration and its record commit together.
  override createAdapter(): DialectAdapter {
    return Object.defineProperty(new SqliteAdapter(), "supportsTransactionalDdl", { value: true });
  }
}
