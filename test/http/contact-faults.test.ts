import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

import { type AppServer, startAppServer } from "../support/app-server";
import { type FakeFunction, startFakeFunction } from "../support/fake-function";
import { freePort } from "../support/ports";

/**
 * When the contact function fails in any way, the visitor gets the spec's
 * error notice with everything they typed still in the form, the server logs
 * it, stays up and serves the next request normally.
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

const inbox = () => join(mkdtempSync(join(tmpdir(), "faults-")), "inbox.jsonl");

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
  beforeAll(async () => {
    fake = await startFakeFunction();
    server = await startAppServer({
      SUPABASE_URL: fake.url,
      SUPABASE_ANON_KEY: "faults-key",
      CONTACT_FUNCTION_TIMEOUT_MS: "1000",
      CONTACT_INBOX_FILE: inbox(),
      RATE_LIMIT_GLOBAL_PER_MINUTE: "1000",
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
    expect(fake.requests).toHaveLength(1);
    await expectStillServing(server);
  });

  it("is slower than CONTACT_FUNCTION_TIMEOUT_MS: 504 after the timeout, not after the function", async () => {
    fake.setMode({ kind: "slow", delayMs: 8_000 });
    const started = Date.now();
    const { status, html } = await submit(server);
    expect(status).toBe(504);
    // Answered because of our 1 s timeout, not the function's 8 s (generous bound for a loaded machine).
    expect(Date.now() - started).toBeLessThan(7_000);
    expectErrorWithValuesKept(html);
    await expectStillServing(server);
  });

  it("hangs forever: 504, values kept, still serving", async () => {
    fake.setMode({ kind: "hang" });
    const { status, html } = await submit(server);
    expect(status).toBe(504);
    expectErrorWithValuesKept(html);
    await expectStillServing(server);
  });

  it("answers garbage (not JSON): the error notice, values kept, still serving", async () => {
    fake.setMode({ kind: "garbage" });
    const { status, html } = await submit(server);
    expect(status).toBe(502);
    expectErrorWithValuesKept(html);
    await expectStillServing(server);
  });

  it("recovers: once the function answers again, the next submission succeeds", async () => {
    fake.setMode({ kind: "status", status: 503 });
    expect((await submit(server)).status).toBe(502);
    fake.setMode({ kind: "success" });
    // (fetch follows the 303 to the page with the notice, as a browser does.)
    const { status, html } = await submit(server);
    expect(status).toBe(200);
    expect(html).toContain("Message Sent Successfully!");
    expect(fake.requests).toHaveLength(2);
  });

  it("logs each failure as one line without the visitor's data", () => {
    const lines = server
      .output()
      .split("\n")
      .filter((line) => line.includes('"event":"contact_submission"'));
    const results = lines.map((line) => (JSON.parse(line) as { result: string }).result);
    expect(results).toEqual(expect.arrayContaining(["send-failed", "timeout", "sent"]));
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
  });
});

describe("the function cannot be reached", () => {
  it("connection refused: 502, values kept, still serving", async () => {
    const closedPort = await freePort();
    const server = await startAppServer({
      SUPABASE_URL: `http://127.0.0.1:${closedPort}`,
      SUPABASE_ANON_KEY: "faults-key",
      CONTACT_INBOX_FILE: inbox(),
    });
    try {
      const { status, html } = await submit(server);
      expect(status).toBe(502);
      expectErrorWithValuesKept(html);
      await expectStillServing(server);
      expect((await submit(server)).status).toBe(502);
    } finally {
      await server.stop();
    }
  });

  it("DNS failure (a .invalid host never resolves): 502, values kept, still serving", async () => {
    const server = await startAppServer({
      // RFC 6761: .invalid names never resolve, so nothing leaves the machine.
      SUPABASE_URL: "http://contact-function.invalid",
      SUPABASE_ANON_KEY: "faults-key",
      CONTACT_INBOX_FILE: inbox(),
    });
    try {
      const { status, html } = await submit(server);
      expect(status).toBe(502);
      expectErrorWithValuesKept(html);
      await expectStillServing(server);
    } finally {
      await server.stop();
    }
  });
});
