import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { type AppServer, startAppServer } from "../support/app-server";
import { type FakeFunction, startFakeFunction } from "../support/fake-function";

const inbox = () => join(mkdtempSync(join(tmpdir(), "ops-")), "inbox.jsonl");
const SECRET_KEY = "super-secret-anon-key-do-not-leak";

describe("GET /healthz with the Supabase function configured", () => {
  let fake: FakeFunction;
  let server: AppServer;
  beforeAll(async () => {
    fake = await startFakeFunction();
    server = await startAppServer({
      SUPABASE_URL: fake.url,
      SUPABASE_ANON_KEY: SECRET_KEY,
      CONTACT_INBOX_FILE: inbox(),
    });
  });
  afterAll(async () => {
    await server?.stop();
    await fake?.close();
  });

  it("answers 200 ok, says the function is configured, never reveals the key, is never cached", async () => {
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
    });
    expect(text).not.toContain(SECRET_KEY);
    expect(text).not.toContain(fake.url);
  });

  it("does not touch the function", async () => {
    fake.reset();
    // Even when the function is down, the server itself is healthy.
    fake.setMode({ kind: "status", status: 500 });
    for (let i = 0; i < 3; i++) expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    expect(fake.requests).toHaveLength(0);
  });

  it("logs one startup line naming the sink, without the key", () => {
    const startup = server
      .output()
      .split("\n")
      .find((line) => line.includes('"event":"startup"'));
    expect(startup).toBeDefined();
    expect(JSON.parse(startup!)).toMatchObject({ event: "startup", contactSink: "supabase" });
    expect(server.output()).not.toContain(SECRET_KEY);
  });
});

describe("GET /healthz with the inbox file (no backend)", () => {
  let server: AppServer;
  let file: string;
  beforeAll(async () => {
    file = inbox();
    server = await startAppServer({ CONTACT_INBOX_FILE: file });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("reports the inbox-file mode", async () => {
    const res = await fetch(`${server.url}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      status: "ok",
      contactFunction: { configured: false, mode: "inbox-file" },
    });
  });

  it("answers HEAD like GET, without a body", async () => {
    const res = await fetch(`${server.url}/healthz`, { method: "HEAD" });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("");
  });

  it("says at startup that requests go to the inbox file", () => {
    const startup = server
      .output()
      .split("\n")
      .find((line) => line.includes('"event":"startup"'));
    expect(JSON.parse(startup!)).toMatchObject({ event: "startup", contactSink: "inbox-file", target: file });
  });
});
