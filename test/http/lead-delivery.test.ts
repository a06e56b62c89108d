import { existsSync, mkdtempSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { type AppServer, leadStoreEnv, startAppServer, useAppWithFunction } from "../support/app-server";
import { afterDispatcherPasses, METRICS_TOKEN } from "../support/dispatcher";
import { type FakeFunction, type FakeFunctionMode, startFakeFunction } from "../support/fake-function";
import { contactRequest } from "../support/contact-request";
import { type LeadRow, readLeads } from "../support/leads";
import { startNoAcceptHost } from "../support/no-accept-host";
import { runLeadsCli } from "../support/npm";
import { freePort } from "../support/ports";

/** Each request is stored before the function is called, then kept as docs/lead-store.md says. */
/** Every field of the form (those not named here empty), as the form posts it. */
const VALUES = contactRequest({
  name: "Katherine Johnson",
  email: "Katherine@Example.com",
  phone: "+1 513 555 0100",
  company: 'Langley & "Sons", Ltd',
  website: "https://example.org",
  companySize: "51-200",
  industry: "Aerospace",
  message: "We need our trajectory reports automated,\nsoon, please.",
});
const ERROR_TITLE = "Error Sending Message";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const storeDir = () => mkdtempSync(join(tmpdir(), "lead-delivery-"));

async function submit(
  server: AppServer,
  fields: Record<string, string> = VALUES,
  headers: Record<string, string> = {},
) {
  const res = await fetch(`${server.url}/?index`, {
    method: "POST",
    headers,
    body: new URLSearchParams(fields),
  });
  return { status: res.status, html: await res.text(), requestId: res.headers.get("x-request-id") };
}

/** The leads of one message (the same e-mail in any case and message are one lead). */
const leadsOf = (file: string, message: string): LeadRow[] =>
  readLeads(file).filter((lead) => lead.message === message);

function leadOf(file: string, message: string): LeadRow {
  const leads = leadsOf(file, message);
  expect(leads).toHaveLength(1);
  return leads[0]!;
}

const keysFor = (fake: FakeFunction, message: string) =>
  fake.requests
    .filter((request) => (request.json as { message?: string } | undefined)?.message === message)
    .map((request) => request.headers["idempotency-key"]);

async function gauge(server: AppServer, name: string): Promise<number> {
  const res = await fetch(`${server.url}/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } });
  expect(res.status).toBe(200);
  return Number(new RegExp(`^${name} (\\S+)$`, "m").exec(await res.text())?.[1]);
}

const UNSURE = "possibly_delivered";

const messageOf = (json: unknown) => (json as { message?: string } | undefined)?.message ?? "";

describe("a request the function does not confirm is kept in the store before the visitor is answered", () => {
  const store = leadStoreEnv(storeDir());
  const file = store.LEADS_DATABASE_FILE!;
  const app = useAppWithFunction({
    CONTACT_FUNCTION_TIMEOUT_MS: "1000",
    RATE_LIMIT_GLOBAL_PER_MINUTE: "1000",
    RATE_LIMIT_PER_CLIENT: "100",
    // The visitor's own attempts only here: the dispatcher's retries are tested below.
    CONTACT_RETRY_INITIAL_SECONDS: "3600",
    METRICS_TOKEN,
    ...store,
  });
  beforeEach(() => app.fake.reset());

  it("a success is one delivered lead, sent as JSON, under the proxy's request id; nothing pending", async () => {
    const message = `${VALUES.message} (sent)`;
    const { status, html } = await submit(
      app.server,
      { ...VALUES, message },
      { "x-request-id": "proxy-req-1" },
    );
    expect(status).toBe(200);
    expect(html).toContain("Message Sent Successfully!");
    const lead = leadOf(file, message);
    expect(lead).toMatchObject({
      state: "delivered",
      attempts: 1,
      last_reason: null,
      request_id: "proxy-req-1",
    });
    expect(lead.delivered_at).not.toBeNull();
    expect(keysFor(app.fake, message)).toEqual([lead.id]);
    expect(app.fake.requests[0]?.headers["content-type"]).toBe("application/json");
    expect(await gauge(app.server, "leads_pending")).toBe(0);
  });

  /** What the function does, what the visitor gets, and the lead: its last reason and status, its state. */
  const failures: [string, FakeFunctionMode, number, string, number | null, "pending" | typeof UNSURE][] = [
    ["HTTP 500", { kind: "status", status: 500 }, 502, "http", 500, "pending"],
    ["a relay error", { kind: "relay" }, 502, "relay", 502, "pending"],
    [
      "a gateway's 504 (the function may have run)",
      { kind: "status", status: 504 },
      502,
      "http",
      504,
      UNSURE,
    ],
    ["the connection closed once the request was read", { kind: "drop" }, 502, "network", null, UNSURE],
    ["a timeout", { kind: "hang" }, 504, "timeout", null, UNSURE],
    ["a portal's 200 page, not the function's (unknown)", { kind: "page" }, 502, "unknown", 200, UNSURE],
    ["an unreadable answer (unknown)", { kind: "garbage" }, 502, "unknown", null, UNSURE],
  ];

  for (const [name, mode, visitorStatus, reason, functionStatus, state] of failures) {
    it(`${name}: the visitor gets ${visitorStatus} and the notice; one ${state} lead with the exact fields`, async () => {
      app.fake.setMode(mode);
      const message = `${VALUES.message} (${name})`;
      const fields = { ...VALUES, message };
      const from = Date.now();
      const { status, html, requestId } = await submit(app.server, fields);
      const to = Date.now();
      expect(status).toBe(visitorStatus);
      expect(html).toContain(ERROR_TITLE);
      expect(html).toContain("Katherine Johnson");

      const lead = leadOf(file, message);
      expect(lead).toMatchObject({
        id: expect.stringMatching(UUID),
        state,
        attempts: 1,
        source: "form",
        request_id: requestId,
        last_reason: reason,
        last_status: functionStatus,
        lease_until: null,
        delivered_at: null,
      });
      expect(JSON.parse(lead.request!)).toEqual(fields);
      expect(lead.received_at).toBeGreaterThanOrEqual(from);
      expect(lead.received_at).toBeLessThanOrEqual(to);
      if (state === "pending") expect(lead.next_attempt_at).toBeGreaterThan(to);
      else expect(lead.next_attempt_at).toBeNull();
      expect(app.fake.requests).toHaveLength(1);
      expect(app.fake.requests[0]?.json).toEqual(fields);
      expect(app.fake.requests[0]?.headers["idempotency-key"]).toBe(lead.id);
    });
  }

  it("the store's file is readable by its owner only (0600), as the files it replaces were", () => {
    for (const path of [file, `${file}-wal`, `${file}-shm`].filter((candidate) => existsSync(candidate)))
      expect({ path, mode: (statSync(path).mode & 0o777).toString(8) }).toEqual({ path, mode: "600" });
  });

  it("the visitor's resend of a pending lead (e-mail in another case) is one row, attempts + 1, the same key; then nothing pending", async () => {
    const message = `${VALUES.message} (resent)`;
    app.fake.setMode({ kind: "status", status: 503 });
    expect((await submit(app.server, { ...VALUES, message })).status).toBe(502);
    const first = leadOf(file, message);
    expect(first).toMatchObject({ state: "pending", attempts: 1, last_status: 503 });
    expect(await gauge(app.server, "leads_pending")).toBeGreaterThan(0);

    app.fake.setMode({ kind: "success" });
    const { status } = await submit(app.server, {
      ...VALUES,
      message,
      email: VALUES.email.toUpperCase(),
      name: "K. Johnson",
    });
    expect(status).toBe(200);
    const lead = leadOf(file, message);
    // The same row, with what the visitor typed this time (and this request's id).
    expect(lead).toMatchObject({ id: first.id, state: "delivered", attempts: 2, name: "K. Johnson" });
    expect(lead.request_id).toEqual(expect.stringMatching(UUID));
    expect(lead.request_id).not.toBe(first.request_id);
    expect(keysFor(app.fake, message)).toEqual([first.id, first.id]);
  });

  it("a success of another request leaves the pending one pending", async () => {
    const failing = "A question that fails first, please.";
    app.fake.setMode({ kind: "status", status: 503 });
    expect((await submit(app.server, { ...VALUES, message: failing })).status).toBe(502);
    app.fake.setMode({ kind: "success" });
    expect(
      (await submit(app.server, { ...VALUES, message: "A different question about automation." })).status,
    ).toBe(200);
    expect(leadOf(file, failing)).toMatchObject({ state: "pending", attempts: 1 });
    expect(await gauge(app.server, "leads_pending")).toBe(
      readLeads(file).filter((lead) => lead.state === "pending").length,
    );
  });

  it("a honeypot hit is kept as spam and never sent, even with the function down; an invalid request is never kept", async () => {
    app.fake.setMode({ kind: "status", status: 500 });
    const before = readLeads(file).length;
    const message = `${VALUES.message} (held as spam)`;
    expect((await submit(app.server, { ...VALUES, message, hp_ref_code: "bot" })).status).toBe(200);
    expect(
      (await submit(app.server, { ...VALUES, message: `${message}!`, email: "not-an-address" })).status,
    ).toBe(400);
    expect(readLeads(file)).toHaveLength(before + 1);
    expect(readLeads(file).filter((lead) => lead.message === message)).toMatchObject([{ state: "spam" }]);
    expect(app.fake.requests).toHaveLength(0);
  });

  it("the log line says the lead is in the store, and never the visitor's data", () => {
    const failed = app.server
      .output()
      .split("\n")
      .filter(
        (line) =>
          line.includes('"event":"contact_submission"') &&
          (line.includes('"send-failed"') || line.includes('"timeout"')),
      );
    expect(failed.length).toBeGreaterThanOrEqual(5);
    for (const line of failed) expect(JSON.parse(line)).toMatchObject({ sink: "supabase", keptIn: "store" });
    expect(app.server.output()).not.toContain("contact_lead_not_saved");
    for (const value of [VALUES.name, VALUES.email, VALUES.phone, "trajectory", "K. Johnson"])
      expect(app.server.output()).not.toContain(value);
  });
});

describe("delivered by the dispatcher, with nobody running a command", () => {
  const store = leadStoreEnv(storeDir());
  const file = store.LEADS_DATABASE_FILE!;
  const app = useAppWithFunction({
    CONTACT_FUNCTION_TIMEOUT_MS: "1000",
    CONTACT_RETRY_INITIAL_SECONDS: "1",
    CONTACT_RETRY_MAX_SECONDS: "1",
    CONTACT_RETRY_MAX_ATTEMPTS: "3",
    RATE_LIMIT_GLOBAL_PER_MINUTE: "1000",
    RATE_LIMIT_PER_CLIENT: "100",
    METRICS_TOKEN,
    ...store,
  });
  beforeEach(() => app.fake.reset());

  it("a failure is pending, then delivered automatically with the same Idempotency-Key", async () => {
    const message = `${VALUES.message} (retried by the dispatcher)`;
    // The function fails the visitor's call and is back for the next; the visitor does nothing more.
    let calls = 0;
    app.fake.setMode({
      kind: "per-request",
      choose: () => (++calls === 1 ? { kind: "status", status: 500 } : { kind: "success" }),
    });
    expect((await submit(app.server, { ...VALUES, message })).status).toBe(502);
    const pending = leadOf(file, message);
    // Pending after the visitor's attempt, read from its log line: the retry is due a second later.
    expect(app.server.output()).toContain(
      `"event":"lead_attempt","leadId":"${pending.id}","by":"visitor","attempt":1,"state":"pending"`,
    );
    await expect
      .poll(() => leadOf(file, message).state, { timeout: 20_000, interval: 100 })
      .toBe("delivered");
    const lead = leadOf(file, message);
    expect(lead).toMatchObject({ id: pending.id, attempts: 2 });
    expect(keysFor(app.fake, message)).toEqual([pending.id, pending.id]);
    expect(app.fake.requests[1]?.json).toEqual({ ...VALUES, message });
    await expect
      .poll(() => app.server.output())
      .toMatch(
        new RegExp(
          `"event":"lead_attempt","leadId":"${lead.id}","by":"dispatcher","attempt":2,"state":"delivered"`,
        ),
      );
    const metrics = await (
      await fetch(`${app.server.url}/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } })
    ).text();
    expect(metrics).toMatch(/^lead_delivery_attempts_total\{by="dispatcher",outcome="delivered"\} 1$/m);
    expect(metrics).toMatch(/^lead_delivery_attempts_total\{by="visitor",outcome="pending"\} 1$/m);
    // The visitor sending it again now is a duplicate: no third call.
    expect((await submit(app.server, { ...VALUES, message })).status).toBe(200);
    expect(keysFor(app.fake, message)).toHaveLength(2);
  });

  it("a timeout is possibly delivered and never resent, while the dispatcher delivers the others", async () => {
    const held = `${VALUES.message} (timed out)`;
    const other = `${VALUES.message} (fails once, then delivered)`;
    let otherFails = true;
    app.fake.setMode({
      kind: "per-request",
      choose: (json) => {
        if (messageOf(json) === held) return { kind: "hang" };
        if (otherFails) return { kind: "status", status: 500 };
        return { kind: "success" };
      },
    });
    expect((await submit(app.server, { ...VALUES, message: held })).status).toBe(504);
    const first = leadOf(file, held);
    expect(first).toMatchObject({ state: "possibly_delivered", attempts: 1, last_reason: "timeout" });
    expect((await submit(app.server, { ...VALUES, message: other })).status).toBe(502);
    otherFails = false;
    // The dispatcher has run (it delivered the other lead) and the held one was not touched.
    await expect.poll(() => leadOf(file, other).state, { timeout: 20_000, interval: 100 }).toBe("delivered");
    // Six more passes (every 500 ms here), counted by the dispatcher itself.
    await afterDispatcherPasses([app.server], 6);
    expect(leadOf(file, held)).toMatchObject({ state: "possibly_delivered", attempts: 1 });
    expect(keysFor(app.fake, held)).toHaveLength(1);
    expect(await gauge(app.server, "leads_possibly_delivered")).toBe(1);
    // The visitor's own resend of it is its next attempt, under the same key (the function tells them apart).
    app.fake.setMode({ kind: "success" });
    expect((await submit(app.server, { ...VALUES, message: held })).status).toBe(200);
    expect(leadOf(file, held)).toMatchObject({ state: "delivered", attempts: 2 });
    expect(keysFor(app.fake, held)).toEqual([first.id, first.id]);
  });

  it("a held lead whose person's resend fails for sure stays held: no machine calls it again; `leads resolve` marks it delivered, with no call", async () => {
    const message = `${VALUES.message} (held, then resent into a 503)`;
    app.fake.setMode({ kind: "page" });
    expect((await submit(app.server, { ...VALUES, message })).status).toBe(502);
    app.fake.setMode({ kind: "status", status: 503 });
    expect((await submit(app.server, { ...VALUES, message })).status).toBe(502);
    const held = leadOf(file, message);
    expect(held).toMatchObject({ state: "possibly_delivered", attempts: 2, last_status: 503 });
    app.fake.setMode({ kind: "success" });
    // A sure failure is due again within CONTACT_RETRY_MAX_SECONDS (1 s): six passes (every 500 ms) cover it.
    await afterDispatcherPasses([app.server], 6);
    expect(keysFor(app.fake, message)).toEqual([held.id, held.id]);
    expect(leadOf(file, message).state).toBe("possibly_delivered");

    const resolved = await runLeadsCli(["resolve", held.id], { ...store, DATABASE_URL: undefined });
    expect(resolved).toMatchObject({ code: 0, stdout: `${held.id}: marked delivered (no call made).\n` });
    expect(leadOf(file, message)).toMatchObject({ state: "delivered", last_reason: "resolved" });
    expect(keysFor(app.fake, message)).toHaveLength(2);
    expect(await runLeadsCli(["resolve", held.id], { ...store, DATABASE_URL: undefined })).toMatchObject({
      code: 1,
      stdout: `${held.id} is delivered, not possibly delivered: nothing changed.\n`,
    });
  });

  it(`dead after CONTACT_RETRY_MAX_ATTEMPTS (3) sure failures, then never tried again`, async () => {
    const message = `${VALUES.message} (always fails)`;
    const later = `${VALUES.message} (fails once, after the dead one)`;
    let laterFails = true;
    app.fake.setMode({
      kind: "per-request",
      choose: (json) =>
        messageOf(json) === later && !laterFails ? { kind: "success" } : { kind: "status", status: 500 },
    });
    expect((await submit(app.server, { ...VALUES, message })).status).toBe(502);
    await expect.poll(() => leadOf(file, message).state, { timeout: 30_000, interval: 100 }).toBe("dead");
    const dead = leadOf(file, message);
    expect(dead).toMatchObject({ attempts: 3, last_status: 500, next_attempt_at: null });
    expect(keysFor(app.fake, message)).toEqual([dead.id, dead.id, dead.id]);
    expect(await gauge(app.server, "leads_dead")).toBe(1);

    // Another lead goes through the dispatcher afterwards; the dead one is not tried a fourth time.
    expect((await submit(app.server, { ...VALUES, message: later })).status).toBe(502);
    laterFails = false;
    await expect.poll(() => leadOf(file, later).state, { timeout: 20_000, interval: 100 }).toBe("delivered");
    expect(keysFor(app.fake, message)).toHaveLength(3);
    expect(leadOf(file, message)).toMatchObject({ state: "dead", attempts: 3 });
    await expect
      .poll(() => app.server.output())
      .toMatch(/"event":"lead_attempt"[^\n]*"by":"dispatcher"[^\n]*"state":"dead"/);
  });
});

describe("the function cannot be reached", () => {
  it("a host that accepts no connection: a sure failure within the connect timeout, the values kept, the lead pending (not held); once the host answers, the dispatcher delivers it with one call", async () => {
    const host = await startNoAcceptHost();
    const store = leadStoreEnv(storeDir());
    const file = store.LEADS_DATABASE_FILE!;
    const server = await startAppServer({
      SUPABASE_URL: `http://127.0.0.1:${host.port}`,
      SUPABASE_ANON_KEY: "lead-delivery-key",
      CONTACT_RETRY_INITIAL_SECONDS: "1",
      CONTACT_RETRY_MAX_SECONDS: "1",
      ...store,
    });
    let fake: FakeFunction | undefined;
    try {
      const { status, html } = await submit(server);
      expect(status).toBe(502);
      expect(html).toContain(ERROR_TITLE);
      expect(html).toContain("Katherine Johnson");
      // Read from the attempt's log line: a second later the dispatcher may already be resending it.
      expect(server.output()).toMatch(
        /"event":"lead_attempt"[^\n]*"by":"visitor","attempt":1,"state":"pending","reason":"network"/,
      );
      expect(server.output()).toContain("UND_ERR_CONNECT_TIMEOUT");
      await host.stop();
      fake = await startFakeFunction(host.port);
      await expect
        .poll(() => leadOf(file, VALUES.message).state, { timeout: 30_000, interval: 100 })
        .toBe("delivered");
      expect(fake.requests.map((request) => request.headers["idempotency-key"])).toEqual([
        leadOf(file, VALUES.message).id,
      ]);
    } finally {
      await server.stop();
      await fake?.close();
      await host.stop();
    }
  });

  it("network: pending with reason network; a rate-limited resend is not an attempt", async () => {
    const store = leadStoreEnv(storeDir());
    const file = store.LEADS_DATABASE_FILE!;
    const server = await startAppServer({
      SUPABASE_URL: `http://127.0.0.1:${await freePort()}`,
      SUPABASE_ANON_KEY: "lead-delivery-key",
      CONTACT_RETRY_INITIAL_SECONDS: "3600",
      RATE_LIMIT_PER_CLIENT: "1",
      RATE_LIMIT_GLOBAL_PER_MINUTE: "2",
      ...store,
    });
    try {
      const { status, requestId } = await submit(server);
      expect(status).toBe(502);
      expect(leadOf(file, VALUES.message)).toMatchObject({
        state: "pending",
        attempts: 1,
        last_reason: "network",
        last_status: null,
        request_id: requestId,
      });

      expect((await submit(server)).status).toBe(429);
      expect(leadOf(file, VALUES.message)).toMatchObject({
        state: "pending",
        attempts: 1,
        request_id: requestId,
      });
    } finally {
      await server.stop();
    }
  });
});

describe("the store cannot be written", () => {
  it("the function is not called (the store may hold the lead under its own key): the lead goes to stderr in full as a last resort, the visitor is told it was not sent", async () => {
    const store = leadStoreEnv(storeDir());
    // A file that is not a database: every write fails, as with a broken disk.
    writeFileSync(store.LEADS_DATABASE_FILE!, "not an SQLite database ".repeat(300));
    const fake = await startFakeFunction();
    const server = await startAppServer({
      SUPABASE_URL: fake.url,
      SUPABASE_ANON_KEY: "lead-delivery-key",
      ...store,
    });
    try {
      const { status, html, requestId } = await submit(server);
      expect(status).toBe(502);
      expect(html).toContain(ERROR_TITLE);
      expect(fake.requests).toHaveLength(0);
      const lastResort = server
        .output()
        .split("\n")
        .find((line) => line.includes('"event":"contact_lead_not_saved"'));
      expect(lastResort).toBeDefined();
      expect(JSON.parse(lastResort!)).toMatchObject({
        requestId,
        lead: VALUES,
        storeError: expect.any(String),
      });
      const submission = server
        .output()
        .split("\n")
        .find((line) => line.includes('"event":"contact_submission"'));
      expect(JSON.parse(submission!)).toMatchObject({ result: "send-failed", keptIn: "stderr", requestId });
      // Only the last-resort line carries the visitor's data.
      const others = server
        .output()
        .split("\n")
        .filter((line) => !line.includes('"event":"contact_lead_not_saved"'));
      for (const value of [VALUES.name, VALUES.phone, "trajectory"])
        expect(others.join("\n")).not.toContain(value);
    } finally {
      await server.stop();
      await fake.close();
    }
  });
});

describe("SIGTERM while a call to the function is failing", () => {
  let server: AppServer | undefined;
  let fake: FakeFunction | undefined;
  afterEach(async () => {
    await server?.stop("SIGKILL");
    await fake?.close();
  });

  it("the server finishes the call, records the lead as pending, answers, then exits 0", async () => {
    const store = leadStoreEnv(storeDir());
    const file = store.LEADS_DATABASE_FILE!;
    fake = await startFakeFunction();
    fake.setMode({ kind: "status", status: 500, delayMs: 1_500 });
    server = await startAppServer({
      SUPABASE_URL: fake.url,
      SUPABASE_ANON_KEY: "lead-delivery-key",
      CONTACT_FUNCTION_TIMEOUT_MS: "10000",
      CONTACT_RETRY_INITIAL_SECONDS: "3600",
      ...store,
    });
    const exit = new Promise<number | null>((resolve) => server!.process.once("exit", resolve));
    const inFlight = submit(server);
    await expect.poll(() => fake!.requests.length, { timeout: 10_000, interval: 20 }).toBe(1);
    expect(leadOf(file, VALUES.message)).toMatchObject({ state: "sending", attempts: 1 });
    server.process.kill("SIGTERM");

    const { status, requestId } = await inFlight;
    expect(status).toBe(502);
    expect(await exit).toBe(0);
    const lead = leadOf(file, VALUES.message);
    expect(lead).toMatchObject({
      state: "pending",
      attempts: 1,
      last_reason: "http",
      last_status: 500,
      request_id: requestId,
      lease_until: null,
    });
    expect(JSON.parse(lead.request!)).toEqual(VALUES);
    expect(fake.requests[0]?.headers["idempotency-key"]).toBe(lead.id);
  });
});
