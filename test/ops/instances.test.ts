import pg from "pg";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";

import { type AppServer, startAppServer } from "../support/app-server";
import { afterDispatcherPasses, METRICS_TOKEN } from "../support/dispatcher";
import { type FakeFunction, startFakeFunction } from "../support/fake-function";
import { describeWithPostgres, type PostgresServer, startPostgres } from "../support/postgres";

/**
 * Several `npm start` instances on one PostgreSQL lead store, as ops run them behind a load
 * balancer (issue 23): real processes, a real PostgreSQL server, the function faked.
 */

const SECOND = 1_000;

interface Row {
  id: string;
  state: string;
  attempts: number;
  email: string;
}

async function leadsOf(url: string, email: string): Promise<Row[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const result = await client.query<Row>(
      "select id, state, attempts, request->>'email' as email from leads where email_key = lower($1) order by received_at",
      [email],
    );
    return result.rows;
  } finally {
    await client.end();
  }
}

describeWithPostgres("three instances on one PostgreSQL lead store", () => {
  let postgres: PostgresServer;
  let databaseUrl: string;
  let fake: FakeFunction;
  const servers: AppServer[] = [];

  const serverEnv = () => ({
    DATABASE_URL: databaseUrl,
    SUPABASE_URL: fake.url,
    SUPABASE_ANON_KEY: "test-anon-key",
    CONTACT_FUNCTION_TIMEOUT_MS: "3000",
    CONTACT_RETRY_INITIAL_SECONDS: "1",
    CONTACT_RETRY_MAX_SECONDS: "2",
    // Each test is its own client, by the address a trusted proxy forwards.
    TRUST_PROXY: "1",
    RATE_LIMIT_PER_CLIENT: "3",
    RATE_LIMIT_GLOBAL_PER_MINUTE: "1000",
    METRICS_TOKEN,
  });

  let clientNumber = 0;
  /** A client address of its own for each test: the per-client limit never mixes tests. */
  const newClient = () => `203.0.113.${++clientNumber}`;

  const post = (server: AppServer, client: string, fields: Record<string, string>) =>
    fetch(`${server.url}/?index`, {
      method: "POST",
      redirect: "manual",
      headers: { "X-Forwarded-For": client },
      body: new URLSearchParams({ name: "Ada Lovelace", ...fields }),
    });

  const callsFor = (email: string) =>
    fake.requests.filter((request) => (request.json as { email?: string } | undefined)?.email === email);

  beforeAll(async () => {
    postgres = await startPostgres();
    databaseUrl = await postgres.createDatabase();
    fake = await startFakeFunction();
    // Replicas that start together: the schema is migrated once (Kysely's advisory lock).
    servers.push(...(await Promise.all([1, 2, 3].map(() => startAppServer(serverEnv())))));
  }, 120 * SECOND);

  // A test that fails midway leaves the function as it set it: never for the next test.
  afterEach(() => fake.setMode({ kind: "success" }));

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop("SIGKILL")));
    await fake?.close();
    await postgres?.destroy();
  });

  it("start together, migrate once, and say where the leads are", async () => {
    for (const server of servers) {
      const health = (await (await fetch(`${server.url}/healthz`)).json()) as { leadStore: unknown };
      expect(health.leadStore).toEqual({ engine: "postgres", state: "ready" });
    }
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    const migrations = await client.query("select name from kysely_migration");
    await client.end();
    expect(migrations.rows).toEqual([
      { name: "001-leads" },
      { name: "002-email-key-nfc" },
      { name: "003-call-started" },
      { name: "004-spam" },
      { name: "005-lead-record" },
    ]);
  });

  it("identical posts to all three at once make one call, and every visitor is told it was sent", async () => {
    const email = "once@example.com";
    fake.setMode({ kind: "slow", delayMs: 700 });
    const client = newClient();
    const answers = await Promise.all(
      servers.map((server) => post(server, client, { email, message: "Three tabs, one lead, please." })),
    );
    fake.setMode({ kind: "success" });
    expect(answers.map((answer) => answer.status)).toEqual([303, 303, 303]);
    expect(answers.map((answer) => answer.headers.get("location"))).toEqual(
      Array(3).fill("/?contact=sent#contact-form"),
    );
    expect(callsFor(email)).toHaveLength(1);
    const [lead] = await leadsOf(databaseUrl, email);
    expect(lead).toMatchObject({ state: "delivered", attempts: 1 });
    expect(callsFor(email)[0]?.headers["idempotency-key"]).toBe(lead?.id);
  });

  it("the per-client limit is counted once across the instances", async () => {
    const client = newClient();
    const statuses: number[] = [];
    for (let index = 0; index < 4; index++) {
      const answer = await post(servers[index % 3]!, client, {
        email: `limit${index}@example.com`,
        message: `Distinct question number ${index}.`,
      });
      statuses.push(answer.status);
      if (answer.status === 429) expect(Number(answer.headers.get("retry-after"))).toBeGreaterThan(0);
    }
    expect(statuses).toEqual([303, 303, 303, 429]);
    expect(
      (
        await post(servers[2]!, newClient(), {
          email: "other@example.com",
          message: "My own question, please.",
        })
      ).status,
    ).toBe(303);
  });

  it(
    "the function fails for a while, then comes back: every lead is delivered once, with nobody running a command",
    async () => {
      fake.setMode({ kind: "status", status: 503 });
      const client = newClient();
      const emails = ["down1@example.com", "down2@example.com", "down3@example.com"];
      for (const [index, email] of emails.entries()) {
        const answer = await post(servers[index]!, client, {
          email,
          message: "Sent while the function is down.",
        });
        expect(answer.status).toBe(502);
      }
      // Kept, not delivered: pending, or being retried by a dispatcher already (the first retry is due
      // 1 s after the failure, sooner than three posts take on a busy machine).
      for (const email of emails)
        expect(["pending", "sending"]).toContain((await leadsOf(databaseUrl, email))[0]?.state);
      // Down a little longer: a dispatcher's retry fails too and backs off.
      await expect.poll(() => fake.requests.length, { timeout: 30 * SECOND }).toBeGreaterThan(emails.length);
      const failedCalls = fake.requests.length;
      fake.setMode({ kind: "success" });
      await expect
        .poll(
          async () =>
            (await Promise.all(emails.map((email) => leadsOf(databaseUrl, email))))
              .flat()
              .map((row) => row.state),
          {
            timeout: 30 * SECOND,
            interval: 250,
          },
        )
        .toEqual(["delivered", "delivered", "delivered"]);
      // Each lead: one accepted call after the function came back, all of its calls with its own key.
      for (const email of emails) {
        const [lead] = await leadsOf(databaseUrl, email);
        const calls = callsFor(email);
        expect(calls.length).toBeGreaterThanOrEqual(2);
        expect(new Set(calls.map((call) => call.headers["idempotency-key"]))).toEqual(new Set([lead!.id]));
        expect(
          fake.requests.slice(failedCalls).filter((call) => (call.json as { email: string }).email === email),
        ).toHaveLength(1);
      }
    },
    60 * SECOND,
  );

  it(
    "an identical post after a restart makes no call",
    async () => {
      const email = "restart@example.com";
      const client = newClient();
      expect((await post(servers[0]!, client, { email, message: "Before the deploy." })).status).toBe(303);
      expect(await servers[0]!.stop("SIGTERM")).toBe(0);
      servers[0] = await startAppServer(serverEnv());
      const again = await post(servers[0], client, {
        email: "RESTART@example.com",
        message: "Before the deploy.",
      });
      expect(again.status).toBe(303);
      expect(callsFor(email)).toHaveLength(1);
      expect(await leadsOf(databaseUrl, email)).toHaveLength(1);
    },
    60 * SECOND,
  );

  it(
    "an instance killed during the call: the lead is held as possibly delivered, never resent, never lost",
    async () => {
      const email = "killed@example.com";
      fake.setMode({
        kind: "per-request",
        choose: (json) =>
          (json as { email?: string }).email === email ? { kind: "hang" } : { kind: "success" },
      });
      const victim = servers[1]!;
      const answer = post(victim, newClient(), { email, message: "Sent by an instance that dies." }).catch(
        (error: unknown) => error,
      );
      await expect.poll(() => callsFor(email).length, { timeout: 10 * SECOND }).toBe(1);
      victim.process.kill("SIGKILL");
      expect(await answer).toBeInstanceOf(Error);
      expect((await leadsOf(databaseUrl, email))[0]?.state).toBe("sending");
      // The lease (timeout 3 s + 5 s) runs out; another instance's dispatcher holds the lead.
      await expect
        .poll(async () => (await leadsOf(databaseUrl, email))[0]?.state, {
          timeout: 30 * SECOND,
          interval: 250,
        })
        .toBe("possibly_delivered");
      fake.setMode({ kind: "success" });
      await afterDispatcherPasses([servers[0]!, servers[2]!]);
      expect(callsFor(email)).toHaveLength(1);
      expect(await leadsOf(databaseUrl, email)).toHaveLength(1);
      servers[1] = await startAppServer(serverEnv());
    },
    90 * SECOND,
  );

  it(
    "the database goes away: the page is served, a post is answered 'not sent' with no call (one key per lead), and the store comes back",
    async () => {
      await postgres.stop();
      const email = "outage@example.com";
      const page = await fetch(`${servers[2]!.url}/`);
      expect(page.status).toBe(200);
      const lead = { email, message: "Sent while the database is down." };
      const answer = await post(servers[2]!, newClient(), lead);
      expect(answer.status).toBe(502);
      expect(callsFor(email)).toHaveLength(0);
      const health = await fetch(`${servers[2]!.url}/healthz`);
      expect(health.status).toBe(200);
      expect(((await health.json()) as { leadStore: { state: string } }).leadStore.state).toBe("unavailable");
      await postgres.start();
      await expect
        .poll(
          async () =>
            ((await (await fetch(`${servers[2]!.url}/healthz`)).json()) as { leadStore: { state: string } })
              .leadStore.state,
          { timeout: 30 * SECOND, interval: 500 },
        )
        .toBe("ready");
      // The visitor's second try, once the store is back: delivered once, under the lead's key.
      const again = await post(servers[2]!, newClient(), lead);
      expect(again.status).toBe(303);
      const [stored] = await leadsOf(databaseUrl, email);
      expect(stored?.state).toBe("delivered");
      expect(callsFor(email)).toHaveLength(1);
    },
    90 * SECOND,
  );
});
