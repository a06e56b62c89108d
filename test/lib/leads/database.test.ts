import { EventEmitter } from "node:events";
import { type AddressInfo, createServer } from "node:net";

import type pg from "pg";
import { describe, expect, it, vi } from "vitest";

import { codedPool, errorText, redactUrl, storeError } from "~/lib/leads/database.server";

const storeErrorClass = (error: unknown) => storeError(error).errorClass;
const isConnectionError = (error: unknown) => storeError(error).down;

describe("what the lead store says about its database", () => {
  it("never prints a password", () => {
    expect(redactUrl("postgres://site:s3cret@db.example.com:5432/site?sslmode=require")).toBe(
      "postgres://site:***@db.example.com:5432/site?sslmode=require",
    );
    expect(redactUrl("postgres://site@127.0.0.1:5432/site")).toBe("postgres://site@127.0.0.1:5432/site");
  });

  it("names a driver error by its code", () => {
    expect(
      errorText(Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:1"), { code: "ECONNREFUSED" })),
    ).toBe("ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:1");
    expect(errorText("plain")).toBe("plain");
  });

  it.each([
    ["ECONNREFUSED", "refused"],
    ["28P01", "refused"], // password authentication failed
    ["3D000", "refused"], // database does not exist
    ["53300", "refused"], // too many connections
    ["SQLITE_CANTOPEN", "refused"],
    ["SQLITE_READONLY_DIRECTORY", "refused"],
    ["EACCES", "refused"],
    ["ETIMEDOUT", "timeout"],
    ["57014", "timeout"], // statement timeout
    ["SQLITE_BUSY", "timeout"],
    ["SQLITE_FULL", "full"],
    ["ENOSPC", "full"],
    ["SQLITE_NOTADB", "corrupt"],
    ["SQLITE_CORRUPT", "corrupt"],
    ["ENOTFOUND", "unreachable"],
    ["ECONNRESET", "unreachable"],
    ["08006", "unreachable"], // connection failure
    ["57P01", "unreachable"], // admin shutdown
    ["42P01", "error"], // undefined table: not a connection problem
  ])("classes the driver code %s as %s, for the public health check", (code, expected) => {
    const error = Object.assign(new Error(`connect ${code} db.internal:5432 user=site`), { code });
    expect(storeErrorClass(error)).toBe(expected);
  });

  it("classes an error without a code as a plain error, whatever its text says", () => {
    expect(storeErrorClass(new Error("Connection terminated due to connection timeout"))).toBe("error");
    expect(storeErrorClass("ECONNREFUSED")).toBe("error");
    expect(storeErrorClass(null)).toBe("error");
  });
});

describe("which store errors mean the database is not there (issue 33)", () => {
  const coded = (code: string, message = "boom") => Object.assign(new Error(message), { code });

  it.each([
    "ECONNREFUSED",
    "ETIMEDOUT",
    "ESQLITEWORKER",
    "08001",
    "08006",
    "57P01",
    "53300",
    "SQLITE_IOERR_WRITE",
    "SQLITE_FULL",
  ])("%s: unavailable", (code) => expect(isConnectionError(coded(code))).toBe(true));

  it.each(["57014", "SQLITE_BUSY", "SQLITE_LOCKED", "POOL_BUSY"])(
    "%s: a slow statement, a lock or every connection in use on a live database, not an outage",
    (code) => expect(isConnectionError(coded(code))).toBe(false),
  );

  it.each(["42P01", "23505", "22021", "SQLITE_CONSTRAINT_UNIQUE", "SQLITE_ERROR", "ERR_ASSERTION"])(
    "%s: a query that is wrong, not an outage",
    (code) => expect(isConnectionError(coded(code, "could not connect: timeout"))).toBe(false),
  );

  it("never reads a message: an error without a code is not an outage, whatever it says", () => {
    expect(isConnectionError(new Error("Connection terminated unexpectedly"))).toBe(false);
    expect(isConnectionError(new Error('value for column "message" mentions a timeout'))).toBe(false);
  });

  /** A pool whose connect and query fail as pg's own transport errors do: a message, no code. */
  const failingPool = (failure: { connect?: Error; query?: Error; afterMs?: number }) => {
    const later = <T>(outcome: () => T) =>
      new Promise<T>((resolve, reject) =>
        setTimeout(() => {
          try {
            resolve(outcome());
          } catch (error) {
            reject(error as Error);
          }
        }, failure.afterMs ?? 0),
      );
    // pg's client is an EventEmitter: an 'error' nobody listens for throws (and ends the process).
    const client = Object.assign(new EventEmitter(), {
      processID: 7,
      released: [] as unknown[],
      query: () =>
        later(() => {
          if (failure.query) throw failure.query;
          return { rows: [] };
        }),
      release(destroy?: unknown) {
        client.released.push(destroy);
      },
    });
    // As pg's pool does, 'connect' once, when the client is new, before the caller gets it.
    let isNew = true;
    const pool = Object.assign(new EventEmitter(), {
      options: {},
      connect: () =>
        later(() => {
          if (failure.connect) throw failure.connect;
          if (isNew) pool.emit("connect", client);
          isNew = false;
          return client;
        }),
      end: async () => undefined,
    });
    return pool as unknown as pg.Pool;
  };

  it("gives pg's code-less transport errors a code: 08001 could not connect, 08006 lost mid-query", async () => {
    const connectFailure = new Error("Connection terminated unexpectedly");
    const pool = codedPool(failingPool({ connect: connectFailure }), { busyMs: 1_000, queryMs: 1_000 });
    await expect(pool.connect()).rejects.toMatchObject({ code: "08001" });
    expect(isConnectionError(connectFailure)).toBe(true);

    const lost = codedPool(failingPool({ query: new Error("Connection terminated unexpectedly") }), {
      busyMs: 1_000,
      queryMs: 1_000,
    });
    const client = await lost.connect();
    expect(client.processID).toBe(7);
    await expect(client.query("select 1", [])).rejects.toMatchObject({ code: "08006" });
  });

  it("a connection lost while a request holds it ends nothing: its 'error' is heard, and it is closed when released (the history test's crash)", async () => {
    const pool = failingPool({});
    const held = await codedPool(pool, { busyMs: 1_000, queryMs: 1_000 }).connect();
    const raw = (await pool.connect()) as unknown as EventEmitter & { released: unknown[] };
    expect(() => raw.emit("error", new Error("Connection terminated unexpectedly"))).not.toThrow();
    held.release();
    expect(raw.released).toEqual([true]);
  });

  it("a server that ends a connection in the packet that opens it (ReadyForQuery, then FATAL 57P01) ends nothing: the history test's instance that died while starting", async () => {
    // A PostgreSQL stand-in speaking just enough of the protocol: to the startup message it answers
    // AuthenticationOk, ReadyForQuery and an administrator's shutdown, in one write.
    const message = (type: string, body: Buffer) => {
      const head = Buffer.alloc(5);
      head.write(type, 0, "latin1");
      head.writeInt32BE(body.length + 4, 1);
      return Buffer.concat([head, body]);
    };
    const shutdown = Buffer.from(
      "SFATAL\0C57P01\0Mterminating connection due to administrator command\0\0",
      "latin1",
    );
    const server = createServer((socket) =>
      socket.once("data", () =>
        socket.end(
          Buffer.concat([
            message("R", Buffer.from([0, 0, 0, 0])),
            message("Z", Buffer.from("I", "latin1")),
            message("E", shutdown),
          ]),
        ),
      ),
    );
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    const { default: pgModule } = await import("pg");
    const real = new pgModule.Pool({ host: "127.0.0.1", port, user: "site", database: "site", max: 1 });
    real.on("error", () => {});
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const client = await codedPool(real, { busyMs: 2_000, queryMs: 2_000 }).connect();
      // The packet has been read whole by now: the FATAL was heard, not thrown.
      await vi.waitFor(() =>
        expect(errors).toHaveBeenCalledWith(expect.stringContaining("lead_store_connection_lost")),
      );
      client.release();
      // Closed, not handed to the next request.
      expect(real.totalCount).toBe(0);
    } finally {
      errors.mockRestore();
      await real.end();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("closes a connection whose query got no answer from the server, and keeps one the server answered with an error", async () => {
    const lostPool = failingPool({ query: new Error("Query read timeout") });
    const lost = await codedPool(lostPool, { busyMs: 1_000, queryMs: 1_000 }).connect();
    await expect(lost.query("select 1", [])).rejects.toThrow();
    lost.release();
    const raw = (await lostPool.connect()) as unknown as { released: unknown[] };
    expect(raw.released).toEqual([true]);

    const { DatabaseError } = await import("pg");
    const refusedPool = failingPool({ query: new DatabaseError("duplicate key", 0, "error") });
    const refused = await codedPool(refusedPool, { busyMs: 1_000, queryMs: 1_000 }).connect();
    await expect(refused.query("insert", [])).rejects.toThrow("duplicate key");
    refused.release();
    const kept = (await refusedPool.connect()) as unknown as { released: unknown[] };
    expect(kept.released).toEqual([false]);
  });

  it("a wait for a connection that ends at its deadline is a busy pool; the server's own codes and programming errors are kept", async () => {
    const slow = codedPool(
      failingPool({ connect: new Error("timeout exceeded when trying to connect"), afterMs: 30 }),
      {
        busyMs: 20,
        queryMs: 20,
      },
    );
    await expect(slow.connect()).rejects.toMatchObject({ code: "POOL_BUSY" });

    const server = codedPool(failingPool({ query: coded("42P01", 'relation "x" does not exist') }), {
      busyMs: 1_000,
      queryMs: 1_000,
    });
    await expect((await server.connect()).query("select * from x", [])).rejects.toMatchObject({
      code: "42P01",
    });

    const bug = new TypeError("Cannot read properties of undefined");
    const buggy = codedPool(failingPool({ query: bug }), { busyMs: 1_000, queryMs: 1_000 });
    await expect((await buggy.connect()).query("select 1", [])).rejects.toBe(bug);
    expect((bug as { code?: string }).code).toBeUndefined();
  });
});
