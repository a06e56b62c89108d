import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

import { type AppServer, leadStoreEnv, startAppServer } from "../support/app-server";
import { type FakeFunction, startFakeFunction } from "../support/fake-function";
import { type LeadRow, readLeads } from "../support/leads";
import { freePort } from "../support/ports";

/**
 * When the contact function fails in any way, the visitor gets the spec's
 * error notice with everything they typed still in the form, the server logs
 * it, stays up and serves the next request normally. The lead was committed to
 * the store before the call, and the store says what became of it: pending
 * (failed for sure, retried later), possibly delivered (unknown outcome, held),
 * delivered. A visitor's resend is that same lead's next attempt.
 */
const ERROR_TITLE = "Error Sending Message";
const ERROR_TEXT = "There was a problem sending your message. Please try again or email us directly.";

const VALUES = {
  name: "Katherine Johnson",
  email: "katherine@example.com",
  phone: "+1 513 555 0100",
  company: "Langley & Sons",
  website: "https://example.org",
  companySize: "51-200",
  industry: "Aerospace",
  message: "We need our trajectory reports automated <b>soon</b>, please.",
};

const escapeHtml = (value: string) =>
  value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** The one lead of VALUES in this store (every resend is the same row). */
function theLead(file: string): LeadRow {
  const leads = readLeads(file).filter(
    (lead) => lead.email === VALUES.email && lead.message === VALUES.message,
  );
  expect(leads).toHaveLength(1);
  return leads[0]!;
}

async function submit(server: AppServer): Promise<{ status: number; html: string }> {
  const res = await fetch(`${server.url}/?index`, { method: "POST", body: new URLSearchParams(VALUES) });
  return { status: res.status, html: await res.text() };
}

/** The error notice, rendered by the server next to the form, and every value back in its field. */
function expectErrorWithValuesKept(html: string) {
  expect(html).toContain(ERROR_TITLE);
  expect(html).toContain(ERROR_TEXT);
  expect(html).toMatch(/role="alert"/);
  expect(html).not.toContain("Message Sent Successfully!");
  for (const [name, value] of Object.entries(VALUES)) {
    if (name === "companySize") {
      expect(html).toMatch(
        new RegExp(`<option[^>]*value="${value}"[^>]*selected|<option[^>]*selected[^>]*value="${value}"`),
      );
    } else if (name === "message") {
      expect(html).toContain(`>${escapeHtml(value)}</textarea>`);
    } else {
      expect(html).toMatch(
        new RegExp(
          `name="${name}"[^>]*value="${escapeHtml(value).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}"|value="${escapeHtml(value).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}"[^>]*name="${name}"`,
        ),
      );
    }
  }
  // The visitor's markup comes back as text, never as markup.
  expect(html).not.toContain("<b>soon</b>");
}

/** The server is still healthy: the page renders and a health check answers. */
async function expectStillServing(server: AppServer) {
  expect(server.process.exitCode).toBeNull();
  const page = await fetch(`${server.url}/`);
  expect(page.status).toBe(200);
  expect(await page.text()).toContain("</html>");
  expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
}

describe("the function misbehaves", () => {
  let fake: FakeFunction;
  let server: AppServer;
  const store = leadStoreEnv();
  const file = store.LEADS_DATABASE_FILE!;
  /** The lead's row after this test's one call, which carried its id as Idempotency-Key. */
  const expectOneAttempt = (state: string, attempts: number) => {
    expect(fake.requests).toHaveLength(1);
    const lead = theLead(file);
    expect(lead).toMatchObject({ state, attempts });
    expect(fake.requests[0]?.headers["idempotency-key"]).toBe(lead.id);
    return lead;
  };
  beforeAll(async () => {
    fake = await startFakeFunction();
    server = await startAppServer({
      SUPABASE_URL: fake.url,
      SUPABASE_ANON_KEY: "faults-key",
      CONTACT_FUNCTION_TIMEOUT_MS: "1000",
      // Every submission here comes from 127.0.0.1.
      RATE_LIMIT_PER_CLIENT: "100",
      RATE_LIMIT_GLOBAL_PER_MINUTE: "1000",
      // The dispatcher must not retry behind these tests' backs: the visitor's resends are the attempts.
      CONTACT_RETRY_INITIAL_SECONDS: "3600",
      ...store,
    });
  });
  afterAll(async () => {
    await server?.stop();
    await fake?.close();
  });
  beforeEach(() => fake.reset());

  it("answers 500: 502 with the error notice, values kept, still serving", async () => {
    fake.setMode({ kind: "status", status: 500 });
    const { status, html } = await submit(server);
    expect(status).toBe(502);
    expectErrorWithValuesKept(html);
    // A sure failure: kept, to be retried later.
    const lead = expectOneAttempt("pending", 1);
    expect(lead).toMatchObject({ last_reason: "http", last_status: 500 });
    expect(lead.next_attempt_at).toBeGreaterThan(Date.now());
    await expectStillServing(server);
  });

  it("is slower than CONTACT_FUNCTION_TIMEOUT_MS: 504 after the timeout, not after the function", async () => {
    // The function would answer after a minute, twice the test's own timeout: only the 1 s
    // timeout can answer the visitor in time.
    fake.setMode({ kind: "slow", delayMs: 60_000 });
    const { status, html } = await submit(server);
    expect(status).toBe(504);
    expectErrorWithValuesKept(html);
    // The function may have received it: held, never resent by a machine.
    const lead = expectOneAttempt("possibly_delivered", 2);
    expect(lead).toMatchObject({ last_reason: "timeout", next_attempt_at: null });
    await expectStillServing(server);
  });

  it("hangs forever: 504, values kept, still serving", async () => {
    fake.setMode({ kind: "hang" });
    const { status, html } = await submit(server);
    expect(status).toBe(504);
    expectErrorWithValuesKept(html);
    // The visitor's resend of a held lead is its next attempt, not a second lead.
    expectOneAttempt("possibly_delivered", 3);
    await expectStillServing(server);
  });

  it("answers garbage (not JSON): the error notice, values kept, still serving", async () => {
    fake.setMode({ kind: "garbage" });
    const { status, html } = await submit(server);
    expect(status).toBe(502);
    expectErrorWithValuesKept(html);
    // It answered, but unreadably: the outcome is unknown.
    expectOneAttempt("possibly_delivered", 4);
    await expectStillServing(server);
  });

  it("recovers: once the function answers again, the next submission succeeds", async () => {
    fake.setMode({ kind: "status", status: 503 });
    expect((await submit(server)).status).toBe(502);
    // The timeouts above may have reached the function: a resend that fails for sure leaves the
    // lead held (decisions, "Held leads"), never back in the machines' retries.
    expect(theLead(file)).toMatchObject({ state: "possibly_delivered", attempts: 5, last_status: 503 });
    fake.setMode({ kind: "success" });
    // (fetch follows the 303 to the page with the notice, as a browser does.)
    const { status, html } = await submit(server);
    expect(status).toBe(200);
    expect(html).toContain("Message Sent Successfully!");
    expect(fake.requests).toHaveLength(2);
    const lead = theLead(file);
    expect(lead).toMatchObject({ state: "delivered", attempts: 6 });
    expect(lead.delivered_at).not.toBeNull();
    // Every attempt at this lead, whatever became of it, carried the same key.
    expect(fake.requests.map((request) => request.headers["idempotency-key"])).toEqual([lead.id, lead.id]);
    // Once delivered, the same request again is a duplicate: answered as sent, no call.
    expect((await submit(server)).status).toBe(200);
    expect(fake.requests).toHaveLength(2);
  });

  it("logs each failure as one line without the visitor's data", () => {
    const lines = server
      .output()
      .split("\n")
      .filter((line) => line.includes('"event":"contact_submission"'));
    const outcomes = lines.map(
      (line) => JSON.parse(line) as { result: string; keptIn?: string; sink?: string },
    );
    const results = outcomes.map((outcome) => outcome.result);
    expect(results).toEqual(expect.arrayContaining(["send-failed", "timeout", "sent", "duplicate"]));
    // Each failed lead is in the store (never in the log).
    for (const outcome of outcomes.filter((o) => o.result === "send-failed" || o.result === "timeout"))
      expect(outcome).toMatchObject({ keptIn: "store", sink: "supabase" });
    expect(server.output()).not.toContain("contact_lead_not_saved");
    for (const value of [VALUES.name, VALUES.email, VALUES.phone, VALUES.message]) {
      expect(server.output()).not.toContain(value);
    }
  });

  it("the JavaScript path (single fetch) gets the same status and notice", async () => {
    fake.setMode({ kind: "status", status: 500 });
    // Not the request delivered above (that one would be answered as already sent), as the
    // enhanced form sends it: asking for the answer as data.
    const res = await fetch(`${server.url}/_root.data?index`, {
      method: "POST",
      body: new URLSearchParams({ ...VALUES, message: `${VALUES.message} Again.`, answer: "data" }),
    });
    expect(res.status).toBe(502);
    const body = await res.text();
    expect(body).toContain(ERROR_TITLE);
    expect(body).toContain(VALUES.name);
    const again = readLeads(file).filter((lead) => lead.message === `${VALUES.message} Again.`);
    expect(again).toMatchObject([{ state: "pending", attempts: 1 }]);
  });
});

describe("the function cannot be reached", () => {
  it("connection refused: 502, values kept, still serving", async () => {
    const closedPort = await freePort();
    const store = leadStoreEnv();
    const server = await startAppServer({
      SUPABASE_URL: `http://127.0.0.1:${closedPort}`,
      SUPABASE_ANON_KEY: "faults-key",
      CONTACT_RETRY_INITIAL_SECONDS: "3600",
      ...store,
    });
    try {
      const { status, html } = await submit(server);
      expect(status).toBe(502);
      expectErrorWithValuesKept(html);
      await expectStillServing(server);
      // Nothing reached the function for sure: pending, to be retried.
      expect(theLead(store.LEADS_DATABASE_FILE!)).toMatchObject({
        state: "pending",
        attempts: 1,
        last_reason: "network",
      });
      expect((await submit(server)).status).toBe(502);
      expect(theLead(store.LEADS_DATABASE_FILE!)).toMatchObject({ state: "pending", attempts: 2 });
    } finally {
      await server.stop();
    }
  });

  it("DNS failure (a .invalid host never resolves): 502, values kept, still serving", async () => {
    const store = leadStoreEnv();
    const server = await startAppServer({
      // RFC 6761: .invalid names never resolve, so nothing leaves the machine.
      SUPABASE_URL: "http://contact-function.invalid",
      SUPABASE_ANON_KEY: "faults-key",
      CONTACT_RETRY_INITIAL_SECONDS: "3600",
      ...store,
    });
    try {
      const { status, html } = await submit(server);
      expect(status).toBe(502);
      expectErrorWithValuesKept(html);
      await expectStillServing(server);
      expect(theLead(store.LEADS_DATABASE_FILE!)).toMatchObject({
        state: "pending",
        attempts: 1,
        last_reason: "network",
      });
    } finally {
      await server.stop();
    }
  });
});

describe("answers whose outcome is unknown are held, never resent by a machine (decisions: outcome of a call)", () => {
  let fake: FakeFunction;
  let server: AppServer;
  const store = leadStoreEnv();
  const file = store.LEADS_DATABASE_FILE!;
  beforeAll(async () => {
    fake = await startFakeFunction();
    server = await startAppServer({
      SUPABASE_URL: fake.url,
      SUPABASE_ANON_KEY: "faults-key",
      // The dispatcher runs every half second: a lead it may resend would be resent during the test.
      CONTACT_RETRY_INITIAL_SECONDS: "1",
      ...store,
    });
  });
  afterAll(async () => {
    await server?.stop();
    await fake?.close();
  });
  beforeEach(() => fake.reset());

  const cases: [string, Parameters<FakeFunction["setMode"]>[0], Record<string, unknown>][] = [
    ["a gateway's 504", { kind: "status", status: 504 }, { last_reason: "http", last_status: 504 }],
    ["the connection closed after the whole request was read", { kind: "drop" }, { last_reason: "network" }],
  ];
  it.each(cases)(
    "%s: 502 to the visitor, the lead possibly delivered, one call",
    async (label, mode, row) => {
      fake.setMode(mode);
      const message = `${VALUES.message} (${label})`;
      const res = await fetch(`${server.url}/?index`, {
        method: "POST",
        body: new URLSearchParams({ ...VALUES, message }),
      });
      expect(res.status).toBe(502);
      const [lead, ...others] = readLeads(file).filter((candidate) => candidate.message === message);
      expect(others).toEqual([]);
      expect(lead).toMatchObject({ state: "possibly_delivered", attempts: 1, next_attempt_at: null, ...row });
      // A sure failure beside it, to know when a dispatcher pass has run: retried and delivered.
      fake.setMode({ kind: "status", status: 503 });
      const sure = `${VALUES.message} (sure failure beside ${label})`;
      await fetch(`${server.url}/?index`, {
        method: "POST",
        body: new URLSearchParams({ ...VALUES, message: sure }),
      });
      fake.setMode({ kind: "success" });
      await expect
        .poll(() => readLeads(file).find((candidate) => candidate.message === sure)?.state, {
          timeout: 20_000,
        })
        .toBe("delivered");
      expect(
        fake.requests.filter((call) => (call.json as { message?: string }).message === message),
      ).toHaveLength(1);
      expect(readLeads(file).find((candidate) => candidate.id === lead!.id)?.state).toBe(
        "possibly_delivered",
      );
    },
  );
});
