// The throwaway PostgreSQL server of test/support/postgres.ts: a real `postgres` process on
// 127.0.0.1, which the tests stop, start again on the same port, and destroy by its PID.
import { existsSync, readFileSync } from "node:fs";

import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";

import { describeWithPostgres, isAlive, type PostgresServer, startPostgres } from "../support/postgres";

async function query<R extends pg.QueryResultRow>(
  url: string,
  sql: string,
  values: unknown[] = [],
): Promise<R[]> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  client.on("error", () => {});
  await client.connect();
  try {
    return (await client.query<R>(sql, values)).rows;
  } finally {
    await client.end().catch(() => {});
  }
}

/** The `Uid:` line of /proc/<pid>/status: real, effective, saved and filesystem UIDs. */
function uids(pid: number): number[] {
  const line = readFileSync(`/proc/${pid}/status`, "utf8").match(/^Uid:\s+(.*)$/m)?.[1] ?? "";
  return line.split(/\s+/).map(Number);
}

describeWithPostgres("throwaway PostgreSQL server", () => {
  let server: PostgresServer;
  let database: string;

  beforeAll(async () => {
    const started = Date.now();
    server = await startPostgres();
    console.info(`PostgreSQL started in ${Date.now() - started} ms (pid ${server.pid}, port ${server.port})`);
  });

  afterAll(async () => {
    await server?.destroy();
  });

  it("is a postgres process of its own, not root, on 127.0.0.1 only", async () => {
    expect(server.url).toBe(`postgres://postgres@127.0.0.1:${server.port}/postgres`);
    expect(isAlive(server.pid)).toBe(true);
    expect(readFileSync(`/proc/${server.pid}/cmdline`, "utf8").split("\0")).toEqual(
      expect.arrayContaining(["-D", server.dataDir, "-p", String(server.port)]),
    );
    expect(uids(server.pid)).not.toContain(0);
    expect(existsSync(`${server.dataDir}/PG_VERSION`)).toBe(true);

    const [settings] = await query<{ listen: string; connections: string }>(
      server.url,
      "SELECT current_setting('listen_addresses') AS listen, current_setting('max_connections') AS connections",
    );
    expect(settings?.listen).toBe("127.0.0.1");
    expect(Number(settings?.connections)).toBeGreaterThanOrEqual(100);
  });

  it("creates a fresh, empty database and runs queries in it", async () => {
    database = await server.createDatabase();
    expect(database).toMatch(
      new RegExp(`^postgres://postgres@127\\.0\\.0\\.1:${server.port}/test_[0-9a-f]+$`),
    );
    expect(
      await query(database, "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'"),
    ).toEqual([]);

    await query(database, "CREATE TABLE leads (id serial PRIMARY KEY, email text NOT NULL)");
    await query(database, "INSERT INTO leads (email) VALUES ($1), ($2)", ["a@example.com", "b@example.com"]);
    expect(await query(database, "SELECT id, email FROM leads ORDER BY id")).toEqual([
      { id: 1, email: "a@example.com" },
      { id: 2, email: "b@example.com" },
    ]);

    const named = await server.createDatabase("leads_named");
    expect(named).toBe(`postgres://postgres@127.0.0.1:${server.port}/leads_named`);
    expect(await query(named, "SELECT current_database() AS name")).toEqual([{ name: "leads_named" }]);
  });

  it("stop() ends the server, so queries fail; start() brings it back on the same port with the data", async () => {
    const firstPid = server.pid;
    let started = Date.now();
    await server.stop();
    console.info(`PostgreSQL stopped in ${Date.now() - started} ms`);
    expect(isAlive(firstPid)).toBe(false);
    await expect(query(database, "SELECT 1")).rejects.toThrow(/ECONNREFUSED/);

    started = Date.now();
    await server.start();
    console.info(`PostgreSQL restarted in ${Date.now() - started} ms (pid ${server.pid})`);
    expect(server.pid).not.toBe(firstPid);
    expect(isAlive(server.pid)).toBe(true);
    expect(server.url).toBe(`postgres://postgres@127.0.0.1:${server.port}/postgres`);
    expect(await query(database, "SELECT email FROM leads ORDER BY id")).toEqual([
      { email: "a@example.com" },
      { email: "b@example.com" },
    ]);
  });

  it("destroy() ends the process and deletes the data dir", async () => {
    const { pid, dataDir } = server;
    const started = Date.now();
    await server.destroy();
    console.info(`PostgreSQL destroyed in ${Date.now() - started} ms`);
    expect(isAlive(pid)).toBe(false);
    expect(existsSync(dataDir)).toBe(false);
    await expect(query(database, "SELECT 1")).rejects.toThrow(/ECONNREFUSED/);
    await expect(server.start()).rejects.toThrow(/destroyed/);
  });
});
