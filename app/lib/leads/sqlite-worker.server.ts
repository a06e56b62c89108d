import { closeSync, openSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname } from "node:path";
import { Worker } from "node:worker_threads";

import {
  CompiledQuery,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  type QueryCompiler,
  type QueryResult,
  SelectQueryNode,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from "kysely";

import { ensureDirectorySync } from "~/lib/files.server";

/**
 * Kysely's SQLite dialect with better-sqlite3 on a worker thread (decision 032). better-sqlite3 is
 * synchronous: on the server's one thread every statement of a lead, its two fsyncs and the
 * driver's own work stopped every other request meanwhile. Here the main thread only compiles the
 * query (Kysely's own SqliteQueryCompiler, adapter and introspector, so the store's one query path
 * is unchanged) and posts `{ sql, parameters }`; the worker owns the one connection, runs the
 * statement and posts back the rows or the changes. Transactions are statements like any other
 * (`begin`, `begin immediate`, `commit`, `rollback`) on that one connection, which the driver hands
 * to one Kysely connection at a time, as Kysely's SqliteDriver does.
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
 * The worker's program, as a string run with `new Worker(code, { eval: true })`: the server and the
 * CLI are esbuild bundles (scripts/bundle.mjs) and the routes are in Remix's server build, three
 * different outputs in different folders, none of which would carry a separate worker file along.
 * A string goes wherever the module importing it goes. It is CommonJS (an eval'd worker's `require`
 * resolves from the working directory, not from the code), so it loads better-sqlite3 from the path
 * the main thread resolved: the same copy of the package that the main thread would have loaded.
 * Plain JavaScript, kept short; test/lib/leads/sqlite-worker.test.ts runs it.
 */
const WORKER_SOURCE = String.raw`
"use strict";
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.driverPath);

const describe = (error) => ({
  message: error instanceof Error ? error.message : String(error),
  code: error && typeof error.code === "string" ? error.code : undefined,
  name: error instanceof Error ? error.name : undefined,
});

let db;
try {
  db = new Database(workerData.file);
  // WAL: readers (the leads CLI) never block the server's writes. FULL: a lead the visitor was told
  // about survives a power cut, not only a crash.
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = FULL");
  // Deleted content is overwritten with zeros, not left in free space: forget and retention mean gone.
  db.pragma("secure_delete = ON");
  // Another process (the CLI) holding the write lock makes a write wait, not fail.
  db.pragma("busy_timeout = " + Number(workerData.busyTimeoutMs));
  parentPort.postMessage({ id: 0 });
} catch (error) {
  try { db && db.close(); } catch {}
  parentPort.postMessage({ id: 0, error: describe(error) });
  parentPort.close();
}

// Prepared statements by SQL text, least recently used first (a Map keeps insertion order).
const statements = new Map();
const prepare = (sql) => {
  let statement = statements.get(sql);
  if (statement) {
    statements.delete(sql);
  } else {
    statement = db.prepare(sql);
    if (statements.size >= workerData.statementCacheSize) statements.delete(statements.keys().next().value);
  }
  statements.set(sql, statement);
  return statement;
};

if (db) {
  parentPort.on("message", (message) => {
    if (message.close) {
      statements.clear();
      try { db.close(); } catch {}
      parentPort.postMessage({ id: message.id });
      parentPort.close();
      return;
    }
    try {
      const statement = prepare(message.sql);
      // As Kysely's SqliteConnection: a statement that returns rows (a select, or "returning") is read.
      if (statement.reader) {
        parentPort.postMessage({ id: message.id, rows: statement.all(message.parameters) });
      } else {
        const { changes, lastInsertRowid } = statement.run(message.parameters);
        parentPort.postMessage({ id: message.id, changes, lastInsertRowid });
      }
    } catch (error) {
      parentPort.postMessage({ id: message.id, error: describe(error) });
    }
  });
}
`;

interface Reply {
  id: number;
  rows?: unknown[];
  changes?: number | bigint;
  lastInsertRowid?: number | bigint;
  error?: { message: string; code?: string; name?: string };
}

/** An error from the worker, with better-sqlite3's `code` (SQLITE_BUSY, …): the store reads it. */
export class SqliteWorkerError extends Error {
  readonly code: string | undefined;
  constructor(message: string, code: string | undefined, name = "SqliteError") {
    super(message);
    this.name = name;
    this.code = code;
  }
}

/**
 * The worker having stopped: a lost connection. The code has the shape of Node's socket errors,
 * which the store takes for "the database is not there" (it marks itself unavailable and opens a
 * new worker when it reconnects).
 */
export const WORKER_EXITED = "ESQLITEWORKER";

let driverPath: string | undefined;
/** better-sqlite3's entry, resolved as an import from this module would be. */
function resolveDriver(): string {
  driverPath ??= createRequire(import.meta.url).resolve("better-sqlite3");
  return driverPath;
}

/** One worker, its one SQLite connection, and the requests waiting for its answers. */
class WorkerChannel {
  readonly #worker: Worker;
  readonly #pending = new Map<number, { resolve: (reply: Reply) => void; reject: (error: Error) => void }>();
  #nextId = 1;
  #exited: Error | undefined;
  #crash: Error | undefined;
  #closing = false;
  readonly exit: Promise<void>;

  private constructor(config: SqliteWorkerConfig) {
    this.#worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: {
        driverPath: resolveDriver(),
        file: config.file,
        busyTimeoutMs: config.busyTimeoutMs ?? 2_000,
        statementCacheSize: config.statementCacheSize ?? 100,
      },
    });
    // An idle worker does not keep the process alive (an open better-sqlite3 handle never did);
    // one with a statement under way does, until its answer.
    this.#worker.unref();
    this.#worker.on("message", (reply: Reply) => this.#answer(reply));
    this.#worker.on("error", (error) => {
      this.#crash = error;
    });
    this.exit = new Promise((resolve) => {
      this.#worker.once("exit", (code) => {
        const why = this.#crash ? `: ${this.#crash.message}` : "";
        this.#exited = new SqliteWorkerError(
          `The SQLite connection is lost: its worker stopped (exit code ${code})${why}`,
          WORKER_EXITED,
          "Error",
        );
        for (const { reject } of this.#pending.values()) reject(this.#exited);
        this.#pending.clear();
        resolve();
      });
    });
    config.onWorker?.(this.#worker);
  }

  /** A worker with its database open; rejects with SQLite's error (SQLITE_CANTOPEN, …) otherwise. */
  static async open(config: SqliteWorkerConfig): Promise<WorkerChannel> {
    const channel = new WorkerChannel(config);
    try {
      await channel.#expect(0);
      return channel;
    } catch (error) {
      await channel.#worker.terminate();
      throw error;
    }
  }

  get alive(): boolean {
    return this.#exited === undefined;
  }

  #expect(id: number): Promise<Reply> {
    if (this.#pending.size === 0) this.#worker.ref();
    return new Promise<Reply>((resolve, reject) => this.#pending.set(id, { resolve, reject }));
  }

  #answer(reply: Reply): void {
    const waiting = this.#pending.get(reply.id);
    if (!waiting) return;
    this.#pending.delete(reply.id);
    if (this.#pending.size === 0 && !this.#closing) this.#worker.unref();
    if (reply.error)
      waiting.reject(new SqliteWorkerError(reply.error.message, reply.error.code, reply.error.name));
    else waiting.resolve(reply);
  }

  request(message: { sql: string; parameters: readonly unknown[] } | { close: true }): Promise<Reply> {
    if (this.#exited) return Promise.reject(this.#exited);
    const id = this.#nextId++;
    const reply = this.#expect(id);
    this.#worker.postMessage({ id, ...message });
    return reply;
  }

  /** Closes the database and ends the worker (ended for good after 5 s if it does not answer). */
  async close(): Promise<void> {
    if (this.#exited) return;
    // Referenced until it has exited: a program awaiting its store's close (the CLI's last step)
    // would otherwise see an empty event loop, and end with its await unsettled.
    this.#closing = true;
    this.#worker.ref();
    const timer = setTimeout(() => void this.#worker.terminate(), 5_000);
    timer.unref();
    await this.request({ close: true }).catch(() => undefined);
    await this.exit;
    clearTimeout(timer);
  }
}

class SqliteWorkerConnection implements DatabaseConnection {
  readonly #channel: () => WorkerChannel;

  constructor(channel: () => WorkerChannel) {
    this.#channel = channel;
  }

  async executeQuery<R>({ sql, parameters }: CompiledQuery): Promise<QueryResult<R>> {
    // Never a new worker here: in the middle of a transaction, that would run the rest of it
    // outside. A lost worker fails every statement until the connection is acquired again.
    const { rows, changes, lastInsertRowid } = await this.#channel().request({ sql, parameters });
    if (rows) return { rows: rows as R[] };
    return {
      numAffectedRows: changes !== undefined && changes !== null ? BigInt(changes) : undefined,
      insertId:
        lastInsertRowid !== undefined && lastInsertRowid !== null ? BigInt(lastInsertRowid) : undefined,
      rows: [],
    };
  }

  async *streamQuery<R>(compiledQuery: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    if (!SelectQueryNode.is(compiledQuery.query)) {
      throw new Error("Sqlite driver only supports streaming of select queries");
    }
    // The rows cross the thread in one message: streamed from there, read at once.
    const { rows } = await this.executeQuery<R>(compiledQuery);
    for (const row of rows) yield { rows: [row] };
  }
}

/** One connection, for one Kysely connection at a time (as Kysely's SqliteDriver). */
class ConnectionMutex {
  #promise: Promise<void> | undefined;
  #resolve: (() => void) | undefined;

  async lock(): Promise<void> {
    while (this.#promise) await this.#promise;
    this.#promise = new Promise((resolve) => {
      this.#resolve = resolve;
    });
  }

  unlock(): void {
    const resolve = this.#resolve;
    this.#promise = undefined;
    this.#resolve = undefined;
    resolve?.();
  }
}

class SqliteWorkerDriver implements Driver {
  readonly #config: SqliteWorkerConfig;
  readonly #mutex = new ConnectionMutex();
  #channel: WorkerChannel | undefined;
  #destroyed = false;
  readonly #connection = new SqliteWorkerConnection(() => {
    if (!this.#channel)
      throw new SqliteWorkerError("The SQLite connection is not open", WORKER_EXITED, "Error");
    return this.#channel;
  });

  constructor(config: SqliteWorkerConfig) {
    this.#config = config;
  }

  async #open(): Promise<void> {
    const { file } = this.#config;
    ensureDirectorySync(dirname(file));
    // Personal data: readable by the server's user only. SQLite gives its -wal and -shm files the
    // database file's permissions, so creating the file 0600 first covers all three.
    closeSync(openSync(file, "a", 0o600));
    this.#channel = await WorkerChannel.open(this.#config);
    if (this.#destroyed) await this.#channel.close();
  }

  // Opened on first use (Kysely calls init then, and again after a failed init), so an unwritable
  // folder is a store that is unavailable (and retried), not a server that cannot start.
  async init(): Promise<void> {
    await this.#open();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    await this.#mutex.lock();
    try {
      // A worker that stopped (a crash) is replaced by the next acquisition: the store's reconnect.
      if (!this.#destroyed && !this.#channel?.alive) await this.#open();
    } catch (error) {
      this.#mutex.unlock();
      throw error;
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

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw("rollback"));
  }

  async releaseConnection(): Promise<void> {
    this.#mutex.unlock();
  }

  async destroy(): Promise<void> {
    this.#destroyed = true;
    await this.#channel?.close();
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

export class SqliteWorkerDialect implements Dialect {
  readonly #config: SqliteWorkerConfig;

  constructor(config: SqliteWorkerConfig) {
    this.#config = { ...config };
  }

  createDriver(): Driver {
    return new SqliteWorkerDriver(this.#config);
  }

  createQueryCompiler(): QueryCompiler {
    return new SqliteQueryCompiler();
  }

  createAdapter(): DialectAdapter {
    return new TransactionalDdlSqliteAdapter();
  }

  createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new SqliteIntrospector(db);
  }
}
