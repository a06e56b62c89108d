import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { type AppServer, leadStoreEnv, startAppServer } from "../support/app-server";
import { afterDispatcherPasses, METRICS_TOKEN } from "../support/dispatcher";
import { type FakeFunction, startFakeFunction } from "../support/fake-function";
import { readLeads } from "../support/leads";

/** The embedded default (one `npm start`, the SQLite file) through a SIGKILL during a call and a restart. */
describe("the embedded SQLite store across a SIGKILL and a restart", () => {
  let fake: FakeFunction;
  let server: AppServer | undefined;
  const env = leadStoreEnv(mkdtempSync(join(tmpdir(), "embedded-")));
  const start = () =>
    startAppServer({
      ...env,
      SUPABASE_URL: fake.url,
      SUPABASE_ANON_KEY: "test-anon-key",
      CONTACT_FUNCTION_TIMEOUT_MS: "2000",
      CONTACT_RETRY_INITIAL_SECONDS: "1",
      CONTACT_RETRY_MAX_SECONDS: "2",
      METRICS_TOKEN,
    });
  const post = (email: string, message: string) =>
    fetch(`${server!.url}/?index`, {
      method: "POST",
      redirect: "manual",
      body: new URLSearchParams({ name: "Ada Lovelace", email, message }),
    });
  const lead = (email: string) => readLeads(env.LEADS_DATABASE_FILE!).filter((row) => row.email === email);

  beforeAll(async () => {
    fake = await startFakeFunction();
    server = await start();
  });
  afterAll(async () => {
    await server?.stop("SIGKILL");
    await fake?.close();
  });

  it("killed during the call: after the restart the lead is held as possibly delivered, never resent", async () => {
    const email = "killed@example.com";
    fake.setMode({ kind: "hang" });
    const answer = post(email, "Sent by a process that dies mid-call.").catch((error: unknown) => error);
    await expect.poll(() => fake.requests.length, { timeout: 10_000 }).toBe(1);
    server!.process.kill("SIGKILL");
    expect(await answer).toBeInstanceOf(Error);
    expect(lead(email).map((row) => row.state)).toEqual(["sending"]);

    fake.setMode({ kind: "success" });
    server = await start();
    // The lease (2 s timeout + 5 s) runs out; the restarted dispatcher holds the lead.
    await expect
      .poll(() => lead(email)[0]?.state, { timeout: 30_000, interval: 250 })
      .toBe("possibly_delivered");
    await afterDispatcherPasses([server!]);
    expect(fake.requests).toHaveLength(1);
    expect(lead(email)).toHaveLength(1);
  }, 60_000);

  it("a delivered lead posted again after a restart makes no call", async () => {
    const email = "twice@example.com";
    const before = fake.requests.length;
    expect((await post(email, "Once before the restart, please.")).status).toBe(303);
    expect(await server!.stop("SIGTERM")).toBe(0);
    server = await start();
    expect((await post("TWICE@example.com", "Once before the restart, please.")).status).toBe(303);
    expect(fake.requests.length - before).toBe(1);
    expect(lead(email).map((row) => row.state)).toEqual(["delivered"]);
  }, 60_000);
});
