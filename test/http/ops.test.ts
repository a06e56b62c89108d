import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { type AppServer, leadStoreEnv, startAppServer } from "../support/app-server";
import { type FakeFunction, startFakeFunction } from "../support/fake-function";
import { readLeads } from "../support/leads";

const SECRET_KEY = "super-secret-anon-key-do-not-leak";

const startupLine = (server: AppServer) => {
  const line = server
    .output()
    .split("\n")
    .find((text) => text.includes('"event":"startup"'));
  expect(line).toBeDefined();
  return JSON.parse(line!) as Record<string, unknown>;
};

const form = () =>
  new URLSearchParams({
    name: "Grace Hopper",
    email: "grace@example.com",
    message: "Please automate our compiler paperwork, thank you.",
  });

describe("GET /healthz with the Supabase function configured", () => {
  let fake: FakeFunction;
  let server: AppServer;
  let file: string;
  beforeAll(async () => {
    fake = await startFakeFunction();
    const store = leadStoreEnv();
    file = store.LEADS_DATABASE_FILE!;
    server = await startAppServer({
      SUPABASE_URL: fake.url,
      SUPABASE_ANON_KEY: SECRET_KEY,
      ...store,
      // The production default (the test servers' own is an hour): the startup line says it.
      CONTACT_RETRY_INITIAL_SECONDS: undefined,
    });
  });
  afterAll(async () => {
    await server?.stop();
    await fake?.close();
  });

  it("answers 200 ok, says the function is configured and the store ready, never reveals the key, is never cached", async () => {
    fake.reset();
    const res = await fetch(`${server.url}/healthz`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/json");
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({
      status: "ok",
      contactFunction: { configured: true, mode: "supabase" },
      leadStore: { engine: "sqlite", state: "ready" },
    });
    expect(text).not.toContain(SECRET_KEY);
    expect(text).not.toContain(fake.url);
    expect(text).not.toContain(file);
  });

  it("does not touch the function", async () => {
    fake.reset();
    // Even when the function is down, the server itself is healthy.
    fake.setMode({ kind: "status", status: 500 });
    for (let i = 0; i < 3; i++) expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    expect(fake.requests).toHaveLength(0);
    expect(readLeads(file)).toEqual([]);
  });

  it("logs one startup line naming the sink and the store, without the key", () => {
    expect(startupLine(server)).toMatchObject({
      event: "startup",
      contactSink: "supabase",
      target: `${fake.url}/functions/v1/send-contact-email`,
      leadStore: { engine: "sqlite", location: file, state: "ready" },
      retry: { initialSeconds: 30, maxSeconds: 3600, maxAttempts: 20 },
    });
    expect(startupLine(server)).not.toHaveProperty("undeliveredFile");
    expect(server.output()).not.toContain(SECRET_KEY);
  });
});

describe("GET /healthz with the store as the inbox (no backend)", () => {
  let server: AppServer;
  let file: string;
  beforeAll(async () => {
    const store = leadStoreEnv();
    file = store.LEADS_DATABASE_FILE!;
    server = await startAppServer(store);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("reports the inbox mode and the store", async () => {
    const res = await fetch(`${server.url}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      status: "ok",
      contactFunction: { configured: false, mode: "inbox" },
      leadStore: { engine: "sqlite", state: "ready" },
    });
  });

  it("answers HEAD like GET, without a body", async () => {
    const res = await fetch(`${server.url}/healthz`, { method: "HEAD" });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("");
  });

  it("says at startup that requests go to the store's inbox, and where the store is", () => {
    const startup = startupLine(server);
    expect(startup).toMatchObject({
      event: "startup",
      contactSink: "inbox",
      leadStore: { engine: "sqlite", location: file, state: "ready" },
    });
    expect(String(startup.target)).toContain("inbox");
  });
});

describe("GET /healthz when the lead store cannot be opened", () => {
  let server: AppServer;
  let fake: FakeFunction;
  beforeAll(async () => {
    fake = await startFakeFunction();
    const dir = mkdtempSync(join(tmpdir(), "ops-broken-store-"));
    const store = leadStoreEnv(dir);
    // A file that is not a database (a disk error, a wrong path): the server must still serve the page.
    writeFileSync(store.LEADS_DATABASE_FILE!, "this is not an SQLite database, only text ".repeat(200));
    server = await startAppServer({ SUPABASE_URL: fake.url, SUPABASE_ANON_KEY: SECRET_KEY, ...store });
  });
  afterAll(async () => {
    await server?.stop();
    await fake?.close();
  });

  it("stays ready (200: the page does not need the store) and says why the store is unavailable", async () => {
    const res = await fetch(`${server.url}/healthz`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { leadStore: { reason?: string } };
    expect(body).toMatchObject({ status: "ok", leadStore: { engine: "sqlite", state: "unavailable" } });
    // A class for the public, never the driver's text; the startup line (ops') has the detail.
    expect(body.leadStore.reason).toBe("corrupt");
    expect(startupLine(server)).toMatchObject({ leadStore: { engine: "sqlite", state: "unavailable" } });
    expect(JSON.stringify(startupLine(server))).toMatch(/NOTADB|not a database/i);
    expect((await fetch(`${server.url}/`)).status).toBe(200);
  });

  it("a visitor is told the lead was not sent, and no call is made (one key per lead: decision 032)", async () => {
    fake.reset();
    const res = await fetch(`${server.url}/?index`, { method: "POST", body: form(), redirect: "manual" });
    expect(res.status).toBe(502);
    expect(fake.requests).toHaveLength(0);
    expect(server.output()).toContain('"event":"contact_lead_not_saved"');
  });
});
