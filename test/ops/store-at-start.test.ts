import { afterAll, beforeAll, expect, it } from "vitest";

import { type AppServer, startAppServer } from "../support/app-server";
import { type FakeFunction, startFakeFunction } from "../support/fake-function";
import { describeWithPostgres, type PostgresServer, startPostgres } from "../support/postgres";

/**
 * A PostgreSQL lead store unreachable at start (issue 23): a post meanwhile gets the error notice
 * and makes no call (decision 032); once the database is there the server reconnects and migrates.
 */
describeWithPostgres("a lead store that is down when the server starts", () => {
  let postgres: PostgresServer;
  let fake: FakeFunction;
  let server: AppServer | undefined;

  beforeAll(async () => {
    postgres = await startPostgres();
    fake = await startFakeFunction();
  });
  afterAll(async () => {
    await server?.stop("SIGKILL");
    await fake?.close();
    await postgres?.destroy();
  });

  it("starts, says so, keeps serving, and reconnects by itself", async () => {
    const databaseUrl = await postgres.createDatabase();
    await postgres.stop();
    server = await startAppServer({
      DATABASE_URL: databaseUrl,
      SUPABASE_URL: fake.url,
      SUPABASE_ANON_KEY: "test-anon-key",
    });
    const startup = server
      .output()
      .split("\n")
      .find((line) => line.includes('"event":"startup"'));
    expect(JSON.parse(startup!)).toMatchObject({ leadStore: { engine: "postgres", state: "unavailable" } });
    // The startup line (ops') keeps the detail; the public health check says only the class.
    expect(startup).toContain("ECONNREFUSED");
    expect((await fetch(`${server.url}/`)).status).toBe(200);
    const health = await (await fetch(`${server.url}/healthz`)).text();
    expect(JSON.parse(health)).toMatchObject({
      leadStore: { engine: "postgres", state: "unavailable", reason: "refused" },
    });
    const port = new URL(databaseUrl).port;
    // (The user is not looked for: the test server's is `postgres`, the engine's name.)
    for (const detail of [port, "127.0.0.1", "ECONNREFUSED", "connect"])
      expect(health, `/healthz names ${detail}`).not.toContain(detail);

    const lead = new URLSearchParams({
      name: "Ada",
      email: "down@example.com",
      message: "The store is down right now.",
    });
    const during = await fetch(`${server.url}/?index`, { method: "POST", redirect: "manual", body: lead });
    expect(during.status).toBe(502);
    expect(fake.requests).toHaveLength(0);
    expect(server.output()).toContain('"event":"contact_lead_not_saved"');

    await postgres.start();
    await expect
      .poll(
        async () =>
          ((await (await fetch(`${server!.url}/healthz`)).json()) as { leadStore: { state: string } })
            .leadStore.state,
        { timeout: 30_000, interval: 500 },
      )
      .toBe("ready");
    expect(server.output()).toContain('"event":"lead_store_reconnected"');
    const again = await fetch(`${server.url}/?index`, { method: "POST", redirect: "manual", body: lead });
    expect(again.status).toBe(303);
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]?.headers["idempotency-key"]).toMatch(/^[0-9a-f-]{36}$/);
  }, 90_000);
});
