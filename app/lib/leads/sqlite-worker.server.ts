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
 * Kysely's SQLite dialect with better-sqlite3 on a worker thread (decision 032), through
 * kysely-generic-sqlite: its worker dialect carries each compiled `{ sql, parameters }` to the
 * worker and the rows or changes back, with Kysely's own SQLite compiler, adapter and
 * introspector. better-sqlite3 is synchronous: on the server's one thread every statement of a
 * lead, its two fsyncs and a write waiting for the CLI's lock would stop every other request.
 *
 * What this file adds around that library's driver, each a promise the store relies on:
 * - transactions that begin IMMEDIATE;
 * - SQLite's error codes across the thread (SQLITE_BUSY, SQLITE_FULL, SQLITE_CANTOPEN: the store
 *   reads them), and a worker that stopped failing its statements as a lost connection
 *   (`ESQLITEWORKER`), replaced by a new worker at the next acquisition;
 * - the file created 0600 first, and an idle worker that does not keep a process alive.
 */

export interface SqliteWorkerConfig {
  /** The database file: created 0600 (with its folder) before SQLite opens it. */
  file: string;
  /** How long a write waits for another process's write lock (the CLI's) before SQLITE_BUSY. */
  busyTimeoutMs?: number;
  /** Prepared statements the worker keeps, by SQL text (the store has a few dozen). */
  statementCacheSize?: number;
  /** Called with every worker started (tests use it to end one abruptly). */
  onWorker?: (worker: Worker) => void;
}

/**
 * The worker's program, run with `eval: true`: the server and the CLI are esbuild bundles and the
 * routes are in Remix's server build, three outputs in different folders, none of which would
 * carry a separate worker file along. CommonJS (an eval'd worker's `require` resolves from the
 * working directory), so it loads better-sqlite3 from the path the main thread resolved. It
 * answers the library's driver in the library's message protocol (init, execute, close), each
 * request synchronously as it arrives: the library's own worker helper queues every request
 * through promises, which cost the contact POST's p99 (docs/performance.md). SQLite's error code
 * travels as the error's name: the protocol carries a name and a message, and nothing else.
 */
const WORKER_SOURCE = String.raw`
"use strict";
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.driverPath);

function open() {
  const db = new Database(workerData.file);
  try {
    // WAL: readers (the leads CLI) never block the server's writes. FULL: a lead the visitor was
    // told about survives a power cut, not only a crash.
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = FULL");
    // Deleted content is overwritten with zeros, not left in free space: forget and retention mean gone.
    db.pragma("secure_delete = ON");
    // Another process (the CLI) holding the write lock makes a write wait, not fail.
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
    if (statements.size >= workerData.statementCacheSize) statements.delete(statements.keys().next().value);
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

// Each request answered as it arrives, in order (SQLite is synchronous: nothing to queue).
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

/**
 * The worker having stopped: a lost connection. The code has the shape of Node's socket errors,
 * which the store takes for "the database is not there" (it marks itself unavailable and opens a
 * new worker when it reconnects).
 */
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
    const { file, busyTimeoutMs = 2_000, statementCacheSize = 100 } = this.#config;
    ensureDirectorySync(dirname(file));
    // Personal data: readable by the server's user only. SQLite gives its -wal and -shm files the
    // database file's permissions, so creating the file 0600 first covers all three.
    closeSync(openSync(file, "a", 0o600));
    const life = { stopped: false };
    const executor = createNodeWorkerExecutor({
      worker: () => {
        const worker = new Worker(WORKER_SOURCE, {
          eval: true,
          workerData: { driverPath: resolveDriver(), file, busyTimeoutMs, statementCacheSize },
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
    // An idle worker does not keep the process alive (an open better-sqlite3 handle never did); one
    // with a statement under way does, until its answer.
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

  // The one connection every Kysely connection gets, in turn. Never a new worker inside it: in the
  // middle of a transaction that would run the rest of it outside; a lost worker fails every
  // statement until the connection is acquired again.
  readonly #connection: DatabaseConnection = {
    executeQuery: (query) => this.#execute(query),
    streamQuery: () => {
      throw new Error("The lead store does not stream SQLite queries");
    },
  };

  // Opened on first use (Kysely calls init then, and again after a failed init), so an unwritable
  // folder is a store that is unavailable (and retried), not a server that cannot start.
  async init(): Promise<void> {
    await this.#open();
  }

  // One caller at a time: Kysely's runtime takes turns itself for an adapter without multiple
  // connections, as SQLite's is (the library's driver hands its one connection to everyone).
  async acquireConnection(): Promise<DatabaseConnection> {
    // A worker that stopped (a crash) is replaced by the next acquisition: the store's reconnect.
    if (!this.#destroyed && (!this.#session || this.#session.life.stopped)) {
      await this.#session?.driver.destroy().catch(() => undefined);
      this.#session = undefined;
      await this.#open();
    }
    return this.#connection;
  }

  // Immediate: a transaction takes the file's write lock first, so two processes (the server and
  // the CLI opening a new file at once) never both read "not migrated" and then collide writing.
  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw("begin immediate"));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw("commit"));
  }

  // SQLite rolls a transaction back itself when a statement in it fails for want of space, memory
  // or I/O (a full disk: SQLITE_FULL), and a stopped worker took its transaction with it. Nothing is
  // left to undo then, and the error that ended the transaction must reach the caller: Kysely
  // throws the rollback's own error instead ("cannot rollback - no transaction is active"), which
  // would tell the store nothing about a full disk.
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
    // Referenced until it has ended: a program awaiting its store's close (the CLI's last step)
    // would otherwise see an empty event loop, and end with its await unsettled.
    session.worker.ref();
    await session.driver.destroy();
  }
}

/**
 * SQLite's DDL is transactional, which Kysely's adapter does not claim (for drivers that cannot
 * hold one connection): claimed here, the migrator runs each run of migrations and its record in
 * one transaction, so a crash between a `create table` and the record leaves nothing half done.
 */
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
