import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Worker } from "node:worker_threads";

import Database from "better-sqlite3";
import { type Generated, Kysely, sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";

import { SqliteWorkerDialect, WORKER_EXITED } from "~/lib/leads/sqlite-worker.server";

interface Db {
  t: { id: Generated<number>; name: string };
}

const folders: string[] = [];
const open: Kysely<Db>[] = [];

function fresh(options: { onWorker?: (worker: Worker) => void; file?: string } = {}) {
  const dir = mkdtempSync(join(tmpdir(), "sqlite-worker-"));
  folders.push(dir);
  const file = options.file ?? join(dir, "test.sqlite");
  const db = new Kysely<Db>({ dialect: new SqliteWorkerDialect({ file, onWorker: options.onWorker }) });
  open.push(db);
  return { db, file, dir };
}

/** The worker threads this thread holds (a MessagePort and a Worker each, as Node counts them). */
const workerHandles = () =>
  process.getActiveResourcesInfo().filter((name) => /Worker|MessagePort/.test(name)).length;

afterEach(async () => {
  await Promise.all(open.splice(0).map((db) => db.destroy().catch(() => undefined)));
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("Kysely's SQLite dialect on a worker thread", () => {
  it("runs queries, returning rows and transactions as Kysely's own SQLite driver does", async () => {
    const { db, file } = fresh();
    await sql`create table t (id integer primary key, name text not null unique)`.execute(db);
    const inserted = await db.insertInto("t").values({ name: "a" }).executeTakeFirstOrThrow();
    expect(inserted.insertId).toBe(1n);
    expect(inserted.numInsertedOrUpdatedRows).toBe(1n);
    const returned = await db.insertInto("t").values({ name: "b" }).returningAll().executeTakeFirstOrThrow();
    expect(returned).toEqual({ id: 2, name: "b" });
    const updated = await db
      .updateTable("t")
      .set({ name: "c" })
      .where("id", "=", 2)
      .executeTakeFirstOrThrow();
    expect(updated.numUpdatedRows).toBe(1n);

    await expect(
      db.transaction().execute(async (trx) => {
        await trx.insertInto("t").values({ name: "rolled back" }).execute();
        throw new Error("no");
      }),
    ).rejects.toThrow("no");
    // The raw `begin immediate` of writeTransaction, on the one connection.
    await db.connection().execute(async (connection) => {
      await sql.raw("begin immediate").execute(connection);
      await connection.insertInto("t").values({ name: "d" }).execute();
      await sql.raw("commit").execute(connection);
    });
    expect((await db.selectFrom("t").select("name").orderBy("id").execute()).map((row) => row.name)).toEqual([
      "a",
      "c",
      "d",
    ]);
    expect((await sql<{ journal_mode: string }>`pragma journal_mode`.execute(db)).rows[0]?.journal_mode).toBe(
      "wal",
    );
    expect((await sql<{ synchronous: number }>`pragma synchronous`.execute(db)).rows[0]?.synchronous).toBe(2);
    expect((await sql<{ timeout: number }>`pragma busy_timeout`.execute(db)).rows[0]?.timeout).toBe(2000);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it("gives the one SQLite connection to one Kysely connection at a time: transactions at once never interleave", async () => {
    const { db } = fresh();
    await sql`create table t (id integer primary key, name text not null unique)`.execute(db);
    const order: string[] = [];
    // Each transaction yields between its statements: without the turn-taking, the second `begin`
    // would reach the connection inside the first transaction and fail.
    const transaction = (name: string) =>
      db.transaction().execute(async (trx) => {
        order.push(`${name} begun`);
        await trx.insertInto("t").values({ name }).execute();
        await new Promise((resolve) => setImmediate(resolve));
        await trx
          .insertInto("t")
          .values({ name: `${name} again` })
          .execute();
        order.push(`${name} done`);
      });
    await Promise.all(["a", "b", "c"].map(transaction));
    expect(order).toEqual(["a begun", "a done", "b begun", "b done", "c begun", "c done"]);
    expect(await db.selectFrom("t").select("name").orderBy("id").execute()).toHaveLength(6);
  });

  it("brings SQLite's error codes across the thread", async () => {
    const { db } = fresh();
    await sql`create table t (id integer primary key, name text not null unique)`.execute(db);
    await db.insertInto("t").values({ name: "a" }).execute();
    await expect(db.insertInto("t").values({ name: "a" }).execute()).rejects.toMatchObject({
      code: "SQLITE_CONSTRAINT_UNIQUE",
      message: expect.stringContaining("UNIQUE"),
    });
    await expect(sql`select * from missing`.execute(db)).rejects.toMatchObject({ code: "SQLITE_ERROR" });
    // A failed statement leaves the connection usable.
    expect(await db.selectFrom("t").selectAll().execute()).toEqual([{ id: 1, name: "a" }]);
  });

  it("a transaction that SQLite rolled back itself (SQLITE_FULL) fails with SQLITE_FULL, not the rollback's error", async () => {
    const { db } = fresh();
    await sql`create table t (id integer primary key, name text not null unique)`.execute(db);
    // A database that may not grow: the next pages it needs are "a full disk".
    const pages = (await sql<{ page_count: number }>`pragma page_count`.execute(db)).rows[0]!.page_count;
    await sql.raw(`pragma max_page_count = ${pages + 1}`).execute(db);
    await expect(
      db.transaction().execute(async (trx) => {
        for (let index = 0; index < 50; index += 1)
          await trx
            .insertInto("t")
            .values({ name: `${index}-${"x".repeat(4_000)}` })
            .execute();
      }),
    ).rejects.toMatchObject({ code: "SQLITE_FULL" });
    // The connection is usable, outside any transaction.
    await sql.raw(`pragma max_page_count = 1000000`).execute(db);
    await db.transaction().execute((trx) => trx.insertInto("t").values({ name: "after" }).execute());
    expect(await db.selectFrom("t").select("name").execute()).toEqual([{ name: "after" }]);
  });

  it("says SQLITE_BUSY when another connection holds the write lock past busy_timeout", async () => {
    const { file } = fresh();
    const busy = new Kysely<Db>({ dialect: new SqliteWorkerDialect({ file, busyTimeoutMs: 0 }) });
    open.push(busy);
    await sql`create table t (id integer primary key, name text not null unique)`.execute(busy);
    const other = new Database(file);
    try {
      other.prepare("begin immediate").run();
      await expect(sql.raw("begin immediate").execute(busy)).rejects.toMatchObject({ code: "SQLITE_BUSY" });
      other.prepare("rollback").run();
    } finally {
      other.close();
    }
    await busy.insertInto("t").values({ name: "a" }).execute();
  });

  it("says SQLITE_CANTOPEN when the file cannot be opened, and opens it once it can", async () => {
    if (process.getuid?.() === 0) return; // root opens any file
    const dir = mkdtempSync(join(tmpdir(), "sqlite-worker-"));
    folders.push(dir);
    mkdirSync(join(dir, "locked"));
    const file = join(dir, "locked", "test.sqlite");
    const { db } = fresh({ file });
    await sql`select 1`.execute(db); // created
    await db.destroy();
    chmodSync(file, 0o000);
    const again = fresh({ file }).db;
    await expect(sql`select 1`.execute(again)).rejects.toMatchObject({ code: "SQLITE_CANTOPEN" });
    chmodSync(file, 0o600);
    expect((await sql<{ one: number }>`select 1 as one`.execute(again)).rows).toEqual([{ one: 1 }]);
  });

  it("fails the statements of a worker that stopped as a lost connection, then opens another", async () => {
    const workers: Worker[] = [];
    const { db } = fresh({ onWorker: (worker) => workers.push(worker) });
    await sql`create table t (id integer primary key, name text not null unique)`.execute(db);
    await db.connection().execute(async (connection) => {
      await sql.raw("begin immediate").execute(connection);
      await connection.insertInto("t").values({ name: "lost" }).execute();
      // Ended (as a crash would) with a statement sent to it: the statement fails, it does not hang.
      const stopped = workers[0]?.terminate();
      const pending = connection.insertInto("t").values({ name: "also lost" }).execute();
      await expect(pending).rejects.toMatchObject({
        code: WORKER_EXITED,
        message: expect.stringMatching(/connection/),
      });
      // The rest of the transaction too: never on another connection.
      await stopped;
      await expect(sql.raw("commit").execute(connection)).rejects.toMatchObject({ code: WORKER_EXITED });
    });
    // The next acquisition opens a new worker; the uncommitted rows are gone.
    expect(await db.selectFrom("t").selectAll().execute()).toEqual([]);
    expect(workers).toHaveLength(2);
  });

  it("closes the database and ends its worker on destroy, and an idle worker does not keep the process alive", async () => {
    const before = workerHandles();
    const exits: number[] = [];
    const { db, file } = fresh({ onWorker: (worker) => worker.on("exit", (code) => exits.push(code)) });
    await sql`create table t (id integer primary key, name text not null unique)`.execute(db);
    expect(existsSync(`${file}-wal`)).toBe(true);
    // Idle: nothing of the worker among the handles that keep the event loop running.
    expect(workerHandles()).toBe(before);
    await db.destroy();
    // Closed, not only stopped: SQLite removes the write-ahead log when its last connection closes.
    expect(existsSync(`${file}-wal`)).toBe(false);
    expect(exits).toHaveLength(1);
    expect(workerHandles()).toBe(before);
    await expect(sql`select 1`.execute(db)).rejects.toThrow(/destroyed/);
  });
});
