import { afterEach, describe, expect, it } from "vitest";

import { type AppServer, leadStoreEnv, startAppServer } from "../support/app-server";
import { type FakeFunction, startFakeFunction } from "../support/fake-function";
import { readLeads } from "../support/leads";
import { contactRequest } from "../support/contact-request";

const form = (overrides: Record<string, string> = {}) =>
  new URLSearchParams(
    contactRequest({
      name: "Grace Hopper",
      email: "grace@example.com",
      company: "Navy",
      message: "Please automate our compiler paperwork, thank you.",
      ...overrides,
    }),
  );

const exited = (server: AppServer) =>
  new Promise<number | null>((resolve) => {
    if (server.process.exitCode !== null) return resolve(server.process.exitCode);
    server.process.once("exit", (code) => resolve(code));
  });

describe("graceful shutdown on SIGTERM", () => {
  let server: AppServer | undefined;
  let fake: FakeFunction | undefined;
  afterEach(async () => {
    await server?.stop("SIGKILL");
    await fake?.close();
    server = undefined;
    fake = undefined;
  });

  it("lets the dispatcher's retry under way finish and records it, then exits 0", async () => {
    fake = await startFakeFunction();
    const store = leadStoreEnv();
    server = await startAppServer({
      SUPABASE_URL: fake.url,
      SUPABASE_ANON_KEY: "shutdown-key",
      CONTACT_FUNCTION_TIMEOUT_MS: "10000",
      CONTACT_RETRY_INITIAL_SECONDS: "1",
      ...store,
    });
    const exit = exited(server);
    // The visitor's call fails for sure; the dispatcher's retry reaches a slow function. Chosen per
    // call, before the post: on a loaded machine, a mode set afterwards could come after the retry.
    const requests = fake.requests;
    fake.setMode({
      kind: "per-request",
      choose: () =>
        requests.length === 1 ? { kind: "status", status: 500 } : { kind: "slow", delayMs: 1_500 },
    });
    const res = await fetch(`${server.url}/?index`, { method: "POST", body: form() });
    expect(res.status).toBe(502);
    // Kept (its state is the dispatcher's to change from now on).
    expect(readLeads(store.LEADS_DATABASE_FILE!)).toHaveLength(1);

    // The deploy's SIGTERM arrives while the retry is under way.
    await expect.poll(() => fake!.requests.length, { timeout: 30_000, interval: 20 }).toBe(2);
    server.process.kill("SIGTERM");
    expect(await exit).toBe(0);

    const leads = readLeads(store.LEADS_DATABASE_FILE!);
    expect(leads).toHaveLength(1);
    expect(leads[0]).toMatchObject({ state: "delivered", attempts: 2 });
    expect(fake.requests.map((request) => request.headers["idempotency-key"])).toEqual([
      leads[0]?.id,
      leads[0]?.id,
    ]);
    expect(server.output()).toMatch(/"event":"lead_attempt"[^\n]*"by":"dispatcher"[^\n]*"state":"delivered"/);
  });

  it("with the store as the inbox, every accepted request is one whole lead in the store before exit", async () => {
    const store = leadStoreEnv();
    const file = store.LEADS_DATABASE_FILE!;
    // Every request comes from 127.0.0.1: the per-client limit would stop the sixth.
    server = await startAppServer({
      ...store,
      RATE_LIMIT_PER_CLIENT: "100000",
      RATE_LIMIT_GLOBAL_PER_MINUTE: "200000",
    });
    const exit = exited(server);
    // Long messages make each insert a larger write, so SIGTERM lands while leads are being written.
    const count = 40;
    let answered = 0;
    const requests = Array.from({ length: count }, (_, i) =>
      fetch(`${server!.url}/?index`, {
        method: "POST",
        body: form({ message: `shutdown-${i} ${"x".repeat(1_900)}` }),
        redirect: "manual",
      }).then(
        async (res) => {
          await res.text(); // the whole answer: none cut off
          answered += 1;
          return { i, status: res.status };
        },
        () => ({ i, status: 0 }),
      ),
    );
    // SIGTERM once the first lead is written and answered, while the others are still in flight.
    await Promise.race(requests);
    server.process.kill("SIGTERM");
    expect(answered, "requests answered before SIGTERM").toBeLessThan(count);
    const results = await Promise.all(requests);
    expect(await exit).toBe(0);

    const accepted = results.filter((r) => r.status === 303).map((r) => r.i);
    console.log(`shutdown: ${accepted.length} of ${count} accepted and written, ${count - answered} refused`);
    // Whatever the server started, it finished: no 5xx, no answer cut off.
    expect(results.filter((r) => r.status >= 500)).toEqual([]);
    for (const r of results.filter((r) => r.status !== 0)) expect(r.status).toBe(303);

    const written = readLeads(file);
    for (const entry of written) {
      expect(entry.message).toMatch(/^shutdown-\d+ x{1900}$/);
      expect(entry).toMatchObject({
        state: "inbox",
        attempts: 0,
        email: "grace@example.com",
        source: "form",
      });
    }
    const tokens = written.map((entry) => Number(/^shutdown-(\d+)/.exec(entry.message)?.[1]));
    expect(new Set(tokens).size).toBe(tokens.length);
    expect(tokens.sort((a, b) => a - b)).toEqual(accepted.sort((a, b) => a - b));
    expect(accepted.length).toBeGreaterThan(0);
  });
});
