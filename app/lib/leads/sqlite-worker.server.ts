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
import { GenericSqliteWorkerDialect } from "kysely-generic-sqlite/worker";
import { createNodeWorkerExecutor } from "kysely-generic-sqlite/worker-helper-node";

import { ensureDirectorySync } from "~/lib/files.server";

/**
 * Kysely's SQLite dialect with better-sqlite3 on a worker thread (decision 032: on the server's
 * thread, every statement and fsync would stop every other request), through kysely-generic-sqlite's
 * worker dialect. Added around its driver: transactions that begin IMMEDIATE; SQLite's error codes
 * across the thread; a stopped worker as a lost connection (`ESQLITEWORKER`), replaced at the next
 * acquisition; the file created 0600; an idle worker that does not keep a process alive.
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
 * bundles, none of which would carry a worker file along); CommonJS, loading better-sqlite3 from
 * the path the main thread resolved. It answers the library's protocol (init, execute, close)
 * synchronously: the library's own helper queues through promises, which cost the POST's p99
 * (docs/performance.md). SQLite's code travels as the error's name (the protocol carries no other).
 */
const WORKER_SOURCE = String.raw`
"use strict";
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.driverPath);

function open() {
  const db = new Database(workerData.file);
  try {
    // WAL: readers never block writes. FULL: a lead survives a power cut. secure_delete: erased
    // content is zeroed. busy_timeout: the CLI's write lock makes a write wait, not fail.
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = FULL");
    db.pragma("secure_delete = ON");
    db.pragma("busy_timeout = " + Number(workerData.busyTimeoutMs));
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

let db;
// Prepared statements by SQL text, least recently used first (a Map keeps insertion order).
const statements = new Map();
function prepare(sql) {
  let statement = statements.get(sql);
  if (statement) statements.delete(sql);
  else {
    statement = db.prepare(sql);
    if (statements.size >= 100) statements.delete(statements.keys().next().value);
  }
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

parentPort.on("message", (message) => {
  try {
    switch (message.type) {
      case "init":
        db = open();
        return parentPort.postMessage({ type: "ready", id: message.id });
      case "execute":
        return parentPort.postMessage({ type: "result", id: message.id, result: query(message.sql, message.parameters) });
      case "close":
        statements.clear();
        db?.close();
        return parentPort.postMessage({ type: "closed", id: message.id });
      default:
        throw new Error("The lead store's SQLite worker does not answer " + message.type);
    }
  } catch (error) {
    const name = error && typeof error.code === "string" ? error.code : (error && error.name) || "Error";
    parentPort.postMessage({ type: "error", id: message.id, error: { name, message: String(error && error.message) } });
  }
});
`;

/** The worker having stopped: a lost connection (shaped as Node's socket codes, which the store reads so). */
export const WORKER_EXITED = "ESQLITEWORKER";

/** An error from the worker with SQLite's code back on it (carried as its name). */
function withSqliteCode(error: unknown, workerStopped: boolean): unknown {
  if (!(error instanceof Error)) return error;
  if (/^SQLITE_/.test(error.name)) return Object.assign(error, { code: error.name, name: "SqliteError" });
  if (workerStopped && (error as { code?: unknown }).code === undefined) {
    error.message = `The SQLite connection is lost: its worker stopped (${error.message})`;
    return Object.assign(error, { code: WORKER_EXITED });
  }
  return error;
}

let driverPath: string | undefined;
/** better-sqlite3's entry, resolved as an import from this module would be. */
const resolveDriver = () => (driverPath ??= createRequire(import.meta.url).resolve("better-sqlite3"));

/** One worker's life: the library's driver on it, and whether the thread is still there. */
interface Session {
  worker: Worker;
  driver: Driver;
  connection: DatabaseConnection;
  life: { stopped: boolean };
}

class SqliteWorkerDriver implements Driver {
  readonly #config: SqliteWorkerConfig;
  #session: Session | undefined;
  #inFlight = 0;
  #destroyed = false;

  constructor(config: SqliteWorkerConfig) {
    this.#config = config;
  }

  async #open(): Promise<void> {
    const { file, busyTimeoutMs = 2_000 } = this.#config;
    ensureDirectorySync(dirname(file));
    // Personal data: the server's user only (SQLite gives -wal and -shm the file's permissions).
    closeSync(openSync(file, "a", 0o600));
    const life = { stopped: false };
    const executor = createNodeWorkerExecutor({
      worker: () => {
        const worker = new Worker(WORKER_SOURCE, {
          eval: true,
          workerData: { driverPath: resolveDriver(), file, busyTimeoutMs },
        });
        // Heard before the library's own listener: a statement it fails then is a lost connection.
        worker.once("exit", () => {
          life.stopped = true;
        });
        this.#config.onWorker?.(worker);
        return worker;
      },
    });
    let worker: Worker | undefined;
    const driver = new GenericSqliteWorkerDialect(async () => {
      const made = await executor();
      worker = made.worker;
      return made;
    }).createDriver();
    try {
      await driver.init();
    } catch (error) {
      throw withSqliteCode(error, false);
    }
    const session: Session = { worker: worker!, driver, connection: await driver.acquireConnection(), life };
    // Only a worker with a statement under way keeps the process alive.
    if (this.#inFlight === 0) session.worker.unref();
    this.#session = session;
    if (this.#destroyed) await this.destroy();
  }

  async #execute<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const session = this.#session;
    if (!session || session.life.stopped)
      throw Object.assign(new Error("The SQLite connection is lost: its worker stopped"), {
        code: WORKER_EXITED,
      });
    if (this.#inFlight++ === 0) session.worker.ref();
    try {
      return await session.connection.executeQuery<R>(query);
    } catch (error) {
      throw withSqliteCode(error, session.life.stopped);
    } finally {
      if (--this.#inFlight === 0) session.worker.unref();
    }
  }

  // The one connection, for every caller in turn. Never a new worker inside it (mid-transaction the
  // rest would run outside): a lost worker fails every statement until the next acquisition.
  readonly #connection: DatabaseConnection = {
    executeQuery: (query) => this.#execute(query),
    streamQuery: () => {
      throw new Error("The lead store does not stream SQLite queries");
    },
  };

  // Opened on first use: an unwritable folder is a store unavailable (and retried), not a failed start.
  async init(): Promise<void> {
    await this.#open();
  }

  // One caller at a time (Kysely takes turns for SQLite's adapter); a stopped worker is replaced.
  async acquireConnection(): Promise<DatabaseConnection> {
    if (!this.#destroyed && (!this.#session || this.#session.life.stopped)) {
      await this.#session?.driver.destroy().catch(() => undefined);
      this.#session = undefined;
      await this.#open();
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
    const session = this.#session;
    if (!session) return;
    // Referenced until it has ended, or a program awaiting this close would exit with it unsettled.
    session.worker.ref();
    await session.driver.destroy();
  }
}

/** SQLite's DDL is transactional: claimed, so a migration and its record commit together. */
class TransactionalDdlSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

export class SqliteWorkerDialect extends BaseSqliteDialect {
  constructor(config: SqliteWorkerConfig) {
    const copy = { ...config };
    super(() => new SqliteWorkerDriver(copy));
  }

  override createAdapter(): DialectAdapter {
    return new TransactionalDdlSqliteAdapter();
  }
}
