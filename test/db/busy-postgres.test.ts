import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";

import { type AppServer, startAppServer } from "../support/app-server";
import { type FakeFunction, startFakeFunction } from "../support/fake-function";
import { describeWithPostgres, type PostgresServer, startPostgres } from "../support/postgres";

/**
 * A busy PostgreSQL is not down (decisions, "Outcome of a call": a store that is slow or waits for
 * a free connection is busy).
 */
describeWithPostgres("every pooled connection of the PostgreSQL lead store busy for 4 s", () => {
  let postgres: PostgresServer;
  let databaseUrl: string;
  let fake: FakeFunction;
  let server: AppServer;

  beforeAll(async () => {
    postgres = await startPostgres();
    databaseUrl = await postgres.createDatabase();
    fake = await startFakeFunction();
    server = await startAppServer({
      DATABASE_URL: databaseUrl,
      SUPABASE_URL: fake.url,
      SUPABASE_ANON_KEY: "test-anon-key",
      // Twelve visitors behind one proxy address: no limit stands between them and the store.
      RATE_LIMIT_PER_CLIENT: "100",
      RATE_LIMIT_GLOBAL_PER_MINUTE: "1000",
    });
  });
  afterAll(async () => {
    await server?.stop();
    await fake?.close();
    await postgres?.destroy();
  });

  const post = (index: number) =>
    fetch(`${server.url}/?index`, {
      method: "POST",
      body: new URLSearchParams({
        name: `Visitor ${index}`,
        email: `visitor${index}@example.com`,
        message: `Request ${index}, sent while the leads table is locked.`,
      }),
      redirect: "manual",
    });

  it("twelve posts while another session holds the leads table: each 303 once the lock goes, each lead called once, none held", async () => {
    const locker = new pg.Client({ connectionString: databaseUrl });
    await locker.connect();
    const watcher = new pg.Client({ connectionString: databaseUrl });
    await watcher.connect();
    try {
      await locker.query("begin");
      await locker.query("lock table leads in access exclusive mode");
      const posts = Array.from({ length: 12 }, (_, index) => post(index));
      // Every pooled connection of the server waits on the lock (the other two posts wait for one).
      await expect
        .poll(
          async () =>
            Number(
              (
                await watcher.query<{ waiting: string }>(
                  "select count(*) as waiting from pg_stat_activity where application_name = 'agency-site' and wait_event_type = 'Lock'",
                )
              ).rows[0]?.waiting,
            ),
          { timeout: 20_000, interval: 50 },
        )
        .toBe(10);
      await new Promise((resolve) => setTimeout(resolve, 4_000));
      await locker.query("commit");
      const answers = await Promise.all(posts);
      expect(answers.map((answer) => answer.status)).toEqual(Array(12).fill(303));
      const { rows } = await watcher.query<{ id: string; state: string }>("select id, state from leads");
      expect(rows).toHaveLength(12);
      expect(rows.every((row) => row.state === "delivered")).toBe(true);
      expect(fake.requests.map((request) => request.headers["idempotency-key"]).sort()).toEqual(
        rows.map((row) => row.id).sort(),
      );
      expect(server.output()).not.toContain("lead_store_unavailable");
      expect(server.output()).not.toContain("contact_lead_not_saved");
    } finally {
      await locker.end();
      await watcher.end();
    }
  });
});
