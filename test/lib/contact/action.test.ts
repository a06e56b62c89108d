import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { delay, http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

import {
  contactNotices,
  contactValidationMessages,
  honeypotField,
  typingTimeField,
} from "~/content/contact-form";
import {
  CONTACT_FIELDS,
  contactField,
  type ContactFieldName,
  type ContactFieldRow,
} from "~/content/contact-fields";
import { createContactAction } from "~/lib/contact/action.server";
import { answerAsDataField, contactSentLocation } from "~/lib/contact/answer";
import type { ContactOutcome } from "~/lib/contact/log.server";
import type { ContactSink } from "~/lib/leads/sink.server";
import { createSupabaseSink } from "~/lib/leads/supabase-sink.server";
import type { ContactActionData } from "~/lib/contact/types";
import type { RetryPolicy } from "~/lib/leads/backoff";
import { openDatabase } from "~/lib/leads/database.server";
import { createContactLimits } from "~/lib/leads/limits.server";
import {
  type Admission,
  createLeadStore,
  DUPLICATE_WINDOW_MS,
  type LeadStore,
  StoreUnavailableError,
} from "~/lib/leads/store.server";

import { type LeadRow, readLeads } from "../../support/leads";
import { contactRequest } from "../../support/contact-request";

/** A field's messages, from its row of the field table. */
const said = (field: ContactFieldName) =>
  contactField(field).messages as Required<ContactFieldRow["messages"]>;

/**
 * The contact action over a real lead store (an SQLite file in a temporary folder, migrated as the
 * server does) and the real supabase-js client, whose calls MSW answers in place of the function
 * `send-contact-email`. Every lead is committed before the function is called (decision 032).
 */

// MSW answers before anything leaves the process; the address is loopback anyway.
const SUPABASE_URL = "http://127.0.0.1:54321";
const ANON_KEY = "test-anon-key";
const FUNCTION_URL = "*/functions/v1/send-contact-email";

interface Received {
  body: unknown;
  headers: Headers;
}
const received: Received[] = [];
const record = async (request: Request) => {
  received.push({ body: await request.clone().json(), headers: request.headers });
};
const keysSent = () => received.map((call) => call.headers.get("idempotency-key"));

const server = setupServer();

beforeAll(() => server.listen({ onUnhandledFrame: "error" }));
afterEach(() => {
  server.resetHandlers();
  received.length = 0;
});
afterAll(() => server.close());

// Each attempt's `lead_attempt` line (attemptDelivery) is for ops, not for this file's output.
beforeEach(() => {
  for (const stream of ["log", "error"] as const) {
    const original = console[stream].bind(console);
    vi.spyOn(console, stream).mockImplementation((...args: unknown[]) => {
      if (typeof args[0] === "string" && args[0].startsWith('{"event":"lead_attempt"')) return;
      original(...args);
    });
  }
});
afterEach(() => vi.restoreAllMocks());

/** The function answers every call with `reply`, recording each. */
function functionAnswers(
  reply: () => Response | Promise<Response> = () => HttpResponse.json({ success: true }),
) {
  server.use(http.post(FUNCTION_URL, async ({ request }) => (await record(request), reply())));
}

const form = contactRequest({
  name: "Ada Lovelace",
  email: "ada@example.com",
  phone: "+1 513 555 0100",
  company: "Analytical Engines",
  website: "https://example.com",
  companySize: "11-50",
  industry: "Manufacturing",
  message: "We want to automate our invoicing.",
});

/** A submission from the enhanced form, which asks for its answer as data (see `noJsPost`). */
function post(fields: Record<string, string>, headers: Record<string, string> = {}) {
  return noJsPost({ [answerAsDataField.name]: answerAsDataField.value, ...fields }, headers);
}

/** A submission as a browser without JavaScript (or curl) sends it. */
function noJsPost(fields: Record<string, string>, headers: Record<string, string> = {}) {
  return new Request("http://127.0.0.1/?index", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(fields).toString(),
  });
}

/** A different lead each time: an identical one is the same lead (decision 026). */
let serial = 0;
const another = (fields: Record<string, string> = form) => ({
  ...fields,
  message: `${fields.message} (request ${++serial})`,
});

interface Answer {
  status: number;
  headers: Headers;
  data: ContactActionData;
}

/** Unwraps what Remix's `data()` carries (single fetch's DataWithResponseInit). */
function unwrap(result: unknown): Answer {
  const { data, init } = result as { data: ContactActionData; init: ResponseInit | null };
  return { status: init?.status ?? 200, headers: new Headers(init?.headers), data };
}

const supabaseSink = (timeoutMs = 10_000) =>
  createSupabaseSink({ url: SUPABASE_URL, anonKey: ANON_KEY, timeoutMs });

const LEASE_MS = 15_000;
const RETRY: RetryPolicy = { initialMs: 30_000, maxMs: 3_600_000, maxAttempts: 3 };
/** With `random` fixed at 0.5, the first retry is due 22.5 s after the failure (equal jitter of 30 s). */
const FIRST_RETRY_DELAY_MS = 22_500;

interface HarnessOptions {
  /** The function; null: none configured, the store is the inbox. Default: supabase-js with MSW. */
  sink?: ContactSink | null;
  limits?: { perClient: number; globalPerMinute: number };
  /** The store's clock (ms since the epoch); the real one when unset. */
  clock?: { now: number };
  retry?: RetryPolicy;
  /** "closed": the store was closed before the request; "unavailable": it never opened. */
  store?: "ready" | "closed" | "unavailable";
  /** The store asks the limit, then fails (a statement after it timed out). */
  failAfterLimit?: boolean;
}

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The action as the server builds it, over a fresh SQLite lead store. */
async function harness(options: HarnessOptions = {}) {
  const dir = mkdtempSync(join(tmpdir(), "contact-action-"));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  let file = join(dir, "data", "leads.sqlite");
  if (options.store === "unavailable") {
    // A folder that cannot be created (a regular file is in the way): the store cannot open.
    writeFileSync(join(dir, "blocker"), "x");
    file = join(dir, "blocker", "leads.sqlite");
  }
  const clock = options.clock;
  const store = createLeadStore({
    database: openDatabase({ file }),
    leaseMs: LEASE_MS,
    retry: options.retry ?? RETRY,
    random: () => 0.5,
    reconnectMs: 600_000,
    log: () => undefined,
    ...(clock ? { now: () => clock.now } : {}),
  });
  cleanups.push(() => store.close().catch(() => undefined));
  await store.start();
  if (options.store === "closed") await store.close();

  // What the store decided for each request (wrapped, not replaced: every other method is the store's).
  const admissions: Admission["kind"][] = [];
  const observed: LeadStore = {
    ...store,
    admit: async (...args) => {
      if (options.failAfterLimit) {
        await args[1].allow();
        throw new StoreUnavailableError("statement timeout");
      }
      const admission = await store.admit(...args);
      admissions.push(admission.kind);
      return admission;
    },
  };
  const log: ContactOutcome[] = [];
  const lastResort: string[] = [];
  const limits = options.limits ?? { perClient: 5, globalPerMinute: 60 };
  const action = createContactAction({
    leads: {
      store: observed,
      sink: options.sink === null ? undefined : (options.sink ?? supabaseSink()),
      limits: createContactLimits({ ...limits, windowSeconds: 600 }),
      leaseMs: LEASE_MS,
    },
    log: (outcome) => log.push(outcome),
    lastResort: (line) => lastResort.push(line),
  });
  return {
    store,
    file,
    action,
    log,
    lastResort,
    admissions,
    run: async (request: Request, client?: string) => unwrap(await action(request, client)),
    rows: (): LeadRow[] => readLeads(file),
    results: () => log.map((outcome) => outcome.result),
  };
}

/** The eight fields of a lead as its row holds them. */
const fieldsOf = (row: LeadRow | undefined) =>
  row &&
  contactRequest({
    name: row.name,
    email: row.email,
    phone: row.phone,
    company: row.company,
    website: row.website,
    companySize: row.company_size,
    industry: row.industry,
    message: row.message,
  });

describe("contact action with the Supabase function (real supabase-js, function mocked by MSW, real SQLite store)", () => {
  it("stores the lead, sends the exact JSON body with the anon key and the lead id as Idempotency-Key, answers success", async () => {
    functionAnswers();
    const h = await harness();
    const answer = await h.run(post(form, { "x-request-id": "req-123" }));

    expect(received).toHaveLength(1);
    expect(received[0]?.body).toEqual(form);
    expect(Object.keys(received[0]?.body as object)).toEqual(CONTACT_FIELDS.map((field) => field.name));
    expect(received[0]?.headers.get("apikey")).toBe(ANON_KEY);
    expect(received[0]?.headers.get("authorization")).toBe(`Bearer ${ANON_KEY}`);
    expect(received[0]?.headers.get("content-type")).toBe("application/json");

    const rows = h.rows();
    expect(rows).toHaveLength(1);
    const [lead] = rows;
    expect(lead?.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(keysSent()).toEqual([lead?.id]);
    expect(lead).toMatchObject({
      state: "delivered",
      attempts: 1,
      source: "form",
      request_id: "req-123",
      next_attempt_at: null,
      lease_until: null,
    });
    expect(lead?.delivered_at).toEqual(expect.any(Number));
    expect(fieldsOf(lead)).toEqual(form);

    expect(answer.status).toBe(200);
    expect(answer.headers.get("cache-control")).toBe("no-store");
    expect(answer.headers.get("x-request-id")).toBe("req-123");
    expect(answer.data).toEqual({ notice: { kind: "success", ...contactNotices.success } });
    expect(h.log).toEqual([expect.objectContaining({ result: "sent", status: 200, sink: "supabase" })]);
    expect(h.lastResort).toEqual([]);
  });

  it("commits the lead before the function is called: another connection sees it, leased, under the key the call carries", async () => {
    const h = await harness();
    const seenDuringCall: LeadRow[][] = [];
    functionAnswers(() => {
      // What any SQLite client (ops, another process) reads while the call is under way.
      seenDuringCall.push(h.rows());
      return HttpResponse.json({});
    });
    expect((await h.run(post(form))).status).toBe(200);
    expect(seenDuringCall).toHaveLength(1);
    const during = seenDuringCall[0] ?? [];
    expect(during).toHaveLength(1);
    expect(during[0]).toMatchObject({ state: "sending", attempts: 1, delivered_at: null });
    expect(during[0]?.lease_until).toEqual(expect.any(Number));
    expect(fieldsOf(during[0])).toEqual(form);
    expect(keysSent()).toEqual([during[0]?.id]);
    // And the outcome is recorded before the visitor is answered.
    expect(h.rows()).toEqual([expect.objectContaining({ id: during[0]?.id, state: "delivered" })]);
  });

  it("sends and stores optional fields as empty strings and trimmed required ones", async () => {
    functionAnswers();
    const h = await harness();
    await h.run(post({ name: " Ada ", email: "ada@example.com", message: "  Automate my invoices  " }));
    const expected = contactRequest({
      name: "Ada",
      email: "ada@example.com",
      message: "Automate my invoices",
    });
    expect(received[0]?.body).toEqual(expected);
    expect(fieldsOf(h.rows()[0])).toEqual(expected);
  });

  const failures: Array<[string, () => Response | Promise<Response>, string, number | null]> = [
    ["a 4xx answer", () => HttpResponse.json({ error: "bad request" }, { status: 400 }), "http", 400],
    ["a 5xx answer", () => HttpResponse.json({ error: "boom" }, { status: 500 }), "http", 500],
    [
      "a relay error",
      () => new HttpResponse("relay", { status: 502, headers: { "x-relay-error": "true" } }),
      "relay",
      502,
    ],
    ["a 503 answer", () => HttpResponse.json({ error: "unavailable" }, { status: 503 }), "http", 503],
  ];
  it.each(failures)(
    "%s gives the error notice with the values kept, leaves the lead pending (attempts 1, a next attempt), logs no personal data",
    async (_label, reply, reason, functionStatus) => {
      functionAnswers(reply);
      const clock = { now: Date.UTC(2026, 1, 3, 4, 5, 6) };
      const h = await harness({ clock });
      const answer = await h.run(post(form));
      expect(received).toHaveLength(1);
      expect(answer.status).toBe(502);
      expect(answer.headers.get("cache-control")).toBe("no-store");
      expect(answer.data.notice).toEqual({ kind: "error", ...contactNotices.sendFailed });
      expect(answer.data.values).toEqual(form);

      const rows = h.rows();
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        state: "pending",
        attempts: 1,
        last_reason: reason,
        last_status: functionStatus,
        next_attempt_at: clock.now + FIRST_RETRY_DELAY_MS,
        lease_until: null,
        delivered_at: null,
      });
      expect(keysSent()).toEqual([rows[0]?.id]);

      expect(h.log).toHaveLength(1);
      expect(h.log[0]).toMatchObject({ result: "send-failed", status: 502, reason, keptIn: "store" });
      const line = JSON.stringify(h.log[0]);
      for (const value of Object.values(form).filter(Boolean)) expect(line).not.toContain(value);
      expect(h.lastResort).toEqual([]);
    },
  );

  const unknownOutcomes: Array<[string, () => Response | Promise<Response>, string, number | null]> = [
    [
      "a gateway's 504 (it gave up; the function may have run)",
      () => new HttpResponse("", { status: 504 }),
      "http",
      504,
    ],
    [
      "a status the outcome table does not name (501)",
      () => new HttpResponse("", { status: 501 }),
      "http",
      501,
    ],
    [
      "a relay's 504",
      () => new HttpResponse("", { status: 504, headers: { "x-relay-error": "true" } }),
      "relay",
      504,
    ],
    ["a connection lost after the request was sent", () => HttpResponse.error(), "network", null],
  ];
  it.each(unknownOutcomes)(
    "%s: possibly delivered, held for a person, never pending (decisions: outcome of a call)",
    async (_label, reply, reason, functionStatus) => {
      functionAnswers(reply);
      const h = await harness();
      const answer = await h.run(post(form));
      expect(received).toHaveLength(1);
      expect(answer.status).toBe(502);
      expect(answer.data.values).toEqual(form);
      expect(h.rows()).toEqual([
        expect.objectContaining({
          state: "possibly_delivered",
          attempts: 1,
          last_reason: reason,
          last_status: functionStatus,
          next_attempt_at: null,
        }),
      ]);
    },
  );

  it("an answer that cannot be read (2xx, not JSON) may mean the function ran: possibly delivered, never pending", async () => {
    functionAnswers(
      () => new HttpResponse("\u0000<html>not json", { headers: { "content-type": "application/json" } }),
    );
    const h = await harness();
    const answer = await h.run(post(form));
    expect(answer.status).toBe(502);
    expect(answer.data.values).toEqual(form);
    expect(h.rows()).toEqual([
      expect.objectContaining({ state: "possibly_delivered", attempts: 1, next_attempt_at: null }),
    ]);
  });

  it("the function's client stops at what is left of the lease when that is shorter than its own timeout (issue 40)", async () => {
    functionAnswers(async () => {
      await delay("infinite");
      return HttpResponse.json({});
    });
    // Its own timeout is an hour: only the deadline it is given can end this call within the test.
    const sent = await supabaseSink(3_600_000).send(form, { idempotencyKey: "lead-1", timeoutMs: 100 });
    expect(sent).toMatchObject({ ok: false, reason: "timeout", possiblyDelivered: true });
    expect(received).toHaveLength(1);
  });

  it("gives up on a hanging function after the configured timeout (504) and holds the lead as possibly delivered", async () => {
    functionAnswers(async () => {
      await delay("infinite");
      return HttpResponse.json({});
    });
    const h = await harness({ sink: supabaseSink(150) });
    const answer = await h.run(post(form));
    expect(answer.status).toBe(504);
    expect(answer.data.notice).toEqual({ kind: "error", ...contactNotices.sendFailed });
    expect(answer.data.values).toEqual(form);
    expect(h.log[0]).toMatchObject({ result: "timeout", status: 504, reason: "timeout", keptIn: "store" });
    expect(h.rows()).toEqual([
      expect.objectContaining({
        state: "possibly_delivered",
        attempts: 1,
        last_reason: "timeout",
        next_attempt_at: null,
      }),
    ]);
  });

  it("does not call the function nor store anything when validation fails, and says why", async () => {
    const reached = vi.fn();
    server.use(http.post(FUNCTION_URL, () => (reached(), HttpResponse.json({}))));
    const h = await harness();
    const answer = await h.run(post({ ...form, email: "ada at example.com" }));
    expect(reached).not.toHaveBeenCalled();
    expect(answer.status).toBe(400);
    expect(answer.data).toEqual({
      notice: { kind: "error", title: "Validation Error", description: said("email").invalid },
      values: { ...form, email: "ada at example.com" },
      field: "email",
    });
    expect(h.log[0]).toMatchObject({ result: "invalid", field: "email" });
    expect(h.rows()).toEqual([]);
  });
});

describe("contact action: every lead once, whatever the visitor does (decisions 026 and 032)", () => {
  it("a resend of a pending lead is its next attempt: one row, attempts 2, the same Idempotency-Key, what was typed last", async () => {
    let fail = true;
    functionAnswers(() =>
      fail ? HttpResponse.json({ error: "down" }, { status: 503 }) : HttpResponse.json({}),
    );
    const h = await harness();
    expect((await h.run(post(form))).status).toBe(502);
    const [pending] = h.rows();
    expect(pending).toMatchObject({ state: "pending", attempts: 1 });

    // The same lead (the e-mail in another case, the same message), with a corrected phone number.
    const resend = { ...form, email: "ADA@example.com", phone: "+1 513 555 0199" };
    expect((await h.run(post(resend))).status).toBe(502);
    const afterSecond = h.rows();
    expect(afterSecond).toHaveLength(1);
    expect(afterSecond[0]).toMatchObject({
      id: pending?.id,
      state: "pending",
      attempts: 2,
      phone: "+1 513 555 0199",
    });
    expect(afterSecond[0]?.next_attempt_at).toEqual(expect.any(Number));

    fail = false;
    expect((await h.run(post(form))).status).toBe(200);
    const delivered = h.rows();
    expect(delivered).toEqual([
      expect.objectContaining({ id: pending?.id, state: "delivered", attempts: 3 }),
    ]);
    expect(keysSent()).toEqual([pending?.id, pending?.id, pending?.id]);
    expect(received.map((call) => (call.body as typeof form).phone)).toEqual([
      form.phone,
      "+1 513 555 0199",
      form.phone,
    ]);
    expect(h.results()).toEqual(["send-failed", "send-failed", "sent"]);

    // Delivered: a fourth identical post is a duplicate, without a call.
    expect((await h.run(post(form))).status).toBe(200);
    expect(received).toHaveLength(3);
    expect(h.results().at(-1)).toBe("duplicate");
  });

  it("after the last allowed attempt a lead is dead, held for a person (and the visitor told it failed)", async () => {
    functionAnswers(() => HttpResponse.json({ error: "down" }, { status: 500 }));
    const h = await harness({ retry: { ...RETRY, maxAttempts: 2 } });
    expect((await h.run(post(form))).status).toBe(502);
    expect(h.rows()[0]).toMatchObject({ state: "pending", attempts: 1 });
    expect((await h.run(post(form))).status).toBe(502);
    expect(h.rows()).toEqual([
      expect.objectContaining({ state: "dead", attempts: 2, next_attempt_at: null }),
    ]);
  });

  it("two identical posts at once (a double click): ONE function call, both answered with its success", async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    functionAnswers(async () => (await gate, HttpResponse.json({})));
    const h = await harness();
    const first = h.run(post(form));
    const second = h.run(post(form));
    await vi.waitFor(() => {
      expect(received).toHaveLength(1);
      expect([...h.admissions].sort()).toEqual(["claimed", "in-flight"]);
    });
    expect(h.log).toHaveLength(0); // both wait for the one call
    release();
    const answers = await Promise.all([first, second]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    expect(answers.map((answer) => answer.data.notice)).toEqual([
      { kind: "success", ...contactNotices.success },
      { kind: "success", ...contactNotices.success },
    ]);
    expect(received).toHaveLength(1);
    expect(h.rows()).toEqual([expect.objectContaining({ state: "delivered", attempts: 1 })]);
    expect(h.results().sort()).toEqual(["duplicate", "sent"]);
  });

  it("two identical posts at once while the function fails: ONE call, both get the error with their values", async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    functionAnswers(async () => (await gate, HttpResponse.json({ error: "boom" }, { status: 500 })));
    const h = await harness();
    const first = h.run(post(form));
    const second = h.run(post(form));
    await vi.waitFor(() => expect([...h.admissions].sort()).toEqual(["claimed", "in-flight"]));
    release();
    const answers = await Promise.all([first, second]);
    expect(answers.map((answer) => answer.status)).toEqual([502, 502]);
    expect(answers.map((answer) => answer.data.values)).toEqual([form, form]);
    expect(received).toHaveLength(1);
    expect(h.rows()).toEqual([expect.objectContaining({ state: "pending", attempts: 1 })]);
    expect(h.results().sort()).toEqual(["duplicate", "send-failed"]);
  });

  it("an identical post within 10 minutes of a delivered one makes no call (result: duplicate); after them, a new lead", async () => {
    functionAnswers();
    const clock = { now: Date.UTC(2026, 1, 3, 4, 0, 0) };
    const h = await harness({ clock });
    expect((await h.run(post(form))).status).toBe(200);
    const [first] = h.rows();

    clock.now += DUPLICATE_WINDOW_MS - 1;
    const again = await h.run(post({ ...form, email: form.email.toUpperCase() }));
    expect(again.status).toBe(200);
    expect(again.data).toEqual({ notice: { kind: "success", ...contactNotices.success } });
    expect(received).toHaveLength(1);
    expect(h.rows()).toHaveLength(1);
    expect(h.log.at(-1)).toMatchObject({ result: "duplicate", status: 200 });

    // Another message from the same person is another lead.
    await h.run(post({ ...form, message: "And our payroll, too, please." }));
    expect(received).toHaveLength(2);

    clock.now += 2;
    expect((await h.run(post(form))).status).toBe(200);
    expect(received).toHaveLength(3);
    const rows = h.rows();
    expect(rows).toHaveLength(3);
    expect(new Set(keysSent()).size).toBe(3);
    expect(keysSent()[0]).toBe(first?.id);
    expect(h.results()).toEqual(["sent", "duplicate", "sent", "sent"]);
  });

  it("a resend of a possibly delivered lead is sent again under the same Idempotency-Key (the function tells them apart)", async () => {
    let hang = true;
    functionAnswers(async () => {
      if (hang) await delay("infinite");
      return HttpResponse.json({});
    });
    const h = await harness({ sink: supabaseSink(150) });
    expect((await h.run(post(form))).status).toBe(504);
    const [held] = h.rows();
    expect(held).toMatchObject({ state: "possibly_delivered", attempts: 1 });
    hang = false;
    expect((await h.run(post(form))).status).toBe(200);
    expect(h.rows()).toEqual([expect.objectContaining({ id: held?.id, state: "delivered", attempts: 2 })]);
    expect(keysSent()).toEqual([held?.id, held?.id]);
  });

  it("the store going away during the call: the visitor still gets the function's answer", async () => {
    const h = await harness();
    functionAnswers(async () => {
      await h.store.close();
      return HttpResponse.json({});
    });
    const answer = await h.run(post(form));
    expect(answer.status).toBe(200);
    expect(answer.data).toEqual({ notice: { kind: "success", ...contactNotices.success } });
    expect(received).toHaveLength(1);
    // The outcome could not be recorded: the lead stays leased (then possibly delivered), never resent by a machine.
    expect(h.rows()).toEqual([expect.objectContaining({ state: "sending", attempts: 1 })]);
  });

  it("without JavaScript a success answers 303 See Other to the page with the notice", async () => {
    functionAnswers();
    const h = await harness();
    const response = await h.action(noJsPost(form));
    expect(response).toBeInstanceOf(Response);
    const redirect = response as Response;
    expect(redirect.status).toBe(303);
    expect(redirect.headers.get("location")).toBe(contactSentLocation);
    expect(contactSentLocation).toBe("/?contact=sent#contact-form");
    expect(redirect.headers.get("cache-control")).toBe("no-store");
    expect(redirect.headers.get("x-request-id")).toBeTruthy();
    expect(received).toHaveLength(1);
    expect(h.log).toEqual([expect.objectContaining({ result: "sent", status: 303 })]);
    // A reload of the sent page posting again is a duplicate, redirected the same way.
    const reload = (await h.action(noJsPost(form))) as Response;
    expect(reload.status).toBe(303);
    expect(reload.headers.get("location")).toBe(contactSentLocation);
    expect(received).toHaveLength(1);
  });

  it("without JavaScript the answers that carry the visitor's values stay direct (400, 502)", async () => {
    functionAnswers(() => HttpResponse.json({ error: "boom" }, { status: 500 }));
    const h = await harness();
    const invalid = unwrap(await h.action(noJsPost({ ...form, email: "nope" })));
    expect(invalid.status).toBe(400);
    expect(invalid.data.values).toEqual({ ...form, email: "nope" });
    const failed = unwrap(await h.action(noJsPost(form)));
    expect(failed.status).toBe(502);
    expect(failed.data.values).toEqual(form);
  });
});

describe("contact action: a lead store that cannot be used", () => {
  for (const state of ["closed", "unavailable"] as const) {
    it(`${state}: the function is not called (the store may hold the lead under its own key); the whole lead is in the last-resort line, the visitor told it was not sent`, async () => {
      // Decision 032: a call here would carry a key the store does not know, beside the one the
      // dispatcher sends the stored lead under when the store is back (issue 33).
      functionAnswers();
      const h = await harness({ store: state });
      if (state === "unavailable") expect(h.store.status().state).toBe("unavailable");
      const answer = await h.run(post(form, { "x-request-id": "req-lost" }));
      expect(answer.status).toBe(502);
      expect(answer.data.notice).toEqual({ kind: "error", ...contactNotices.sendFailed });
      expect(answer.data.values).toEqual(form);
      expect(received).toHaveLength(0);
      expect(h.lastResort).toHaveLength(1);
      const line = JSON.parse(h.lastResort[0] ?? "{}") as Record<string, unknown>;
      expect(line).toMatchObject({ event: "contact_lead_not_saved", requestId: "req-lost", lead: form });
      expect(line.storeError).toEqual(expect.any(String));
      expect(h.log).toEqual([
        expect.objectContaining({ result: "send-failed", status: 502, keptIn: "stderr" }),
      ]);
      // The ops log line itself still carries no personal data.
      for (const value of Object.values(form).filter(Boolean))
        expect(JSON.stringify(h.log[0])).not.toContain(value);
    });
  }

  it("unavailable, in inbox mode (no function): nowhere to keep the lead but the last-resort line, and the visitor is told", async () => {
    const h = await harness({ store: "unavailable", sink: null });
    const answer = await h.run(post(form));
    expect(answer.status).toBe(502);
    expect(answer.data.values).toEqual(form);
    expect(h.lastResort).toHaveLength(1);
    expect(JSON.parse(h.lastResort[0] ?? "{}")).toMatchObject({
      event: "contact_lead_not_saved",
      lead: form,
    });
  });

  it("unavailable: the limits still hold (a refused post reaches no log of leads)", async () => {
    functionAnswers();
    const h = await harness({ store: "unavailable", limits: { perClient: 1, globalPerMinute: 60 } });
    expect((await h.run(post(another()), "203.0.113.5")).status).toBe(502);
    const limited = await h.run(post(another()), "203.0.113.5");
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(received).toHaveLength(0);
    expect(h.lastResort).toHaveLength(1);
  });
});

describe("contact action in inbox mode (no function: the store is where leads are read)", () => {
  it("keeps the lead in state inbox, answers success, calls nothing", async () => {
    const clock = { now: Date.UTC(2026, 0, 2, 3, 4, 5) };
    const h = await harness({ sink: null, clock });
    const answer = await h.run(post(form));
    expect(answer.status).toBe(200);
    expect(answer.data).toEqual({ notice: { kind: "success", ...contactNotices.success } });
    const rows = h.rows();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      state: "inbox",
      received_at: clock.now,
      attempts: 0,
      next_attempt_at: null,
      lease_until: null,
    });
    expect(fieldsOf(rows[0])).toEqual(form);
    expect(received).toHaveLength(0);
    expect(h.log).toEqual([expect.objectContaining({ result: "sent", sink: "inbox" })]);
    // The same lead posted again is kept once.
    expect((await h.run(post(form))).status).toBe(200);
    expect(h.rows()).toHaveLength(1);
    expect(h.results()).toEqual(["sent", "duplicate"]);
  });

  it("keeps every lead whole under 50 concurrent submissions", async () => {
    const h = await harness({ sink: null, limits: { perClient: 100, globalPerMinute: 100 } });
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        h.run(post({ ...form, name: `Visitor ${i}`, message: `${i} `.repeat(600) + "end" })),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array.from({ length: 50 }, () => 200));
    const rows = h.rows();
    expect(rows).toHaveLength(50);
    expect(rows.map((row) => row.name).sort()).toEqual(
      Array.from({ length: 50 }, (_, i) => `Visitor ${i}`).sort(),
    );
    for (const row of rows) expect(row.message).toBe(`${row.name.slice(8)} `.repeat(600) + "end");
  });
});

describe("contact action: abuse protection", () => {
  it("a filled honeypot gets the success notice, is kept as spam and never sent, and is logged", async () => {
    functionAnswers();
    const h = await harness();
    const answer = await h.run(post({ ...form, [honeypotField.name]: "http://spam.example" }));
    expect(answer.status).toBe(200);
    expect(answer.data.notice).toEqual({ kind: "success", ...contactNotices.success });
    expect(received).toHaveLength(0);
    expect(h.rows()).toMatchObject([{ state: "spam", spam_signals: "honeypot", email: form.email }]);
    expect(h.log[0]).toMatchObject({ result: "spam", spamSignals: ["honeypot"] });
    // An empty honeypot (what people send) goes through.
    await h.run(post({ ...form, [honeypotField.name]: "" }));
    expect(received).toHaveLength(1);
    expect(
      h
        .rows()
        .map((row) => row.state)
        .sort(),
    ).toEqual(["delivered", "spam"]);
  });

  it("without JavaScript a honeypot hit is redirected like a success, and kept as spam", async () => {
    functionAnswers();
    const h = await harness();
    const response = (await h.action(noJsPost({ ...form, [honeypotField.name]: "x" }))) as Response;
    expect(response.status).toBe(303);
    expect(received).toHaveLength(0);
    expect(h.rows()).toMatchObject([{ state: "spam" }]);
  });

  it("a double click on a held submission keeps one copy; a real resend of it afterwards is sent", async () => {
    functionAnswers();
    const h = await harness();
    const trapped = { ...another(), [honeypotField.name]: "filled by a password manager" };
    expect((await h.run(post(trapped))).status).toBe(200);
    expect((await h.run(post(trapped))).status).toBe(200);
    expect(h.rows()).toHaveLength(1);
    // The same person, the trap empty this time: a lead like any other, never a "duplicate" of spam.
    expect((await h.run(post({ ...trapped, [honeypotField.name]: "" }))).status).toBe(200);
    expect(received).toHaveLength(1);
    expect(
      h
        .rows()
        .map((row) => row.state)
        .sort(),
    ).toEqual(["delivered", "spam"]);
  });

  it("the typing time counts only when the form sent it: a fast submit alone is sent, with a second signal held", async () => {
    functionAnswers();
    const h = await harness();
    const fast = { [typingTimeField.name]: "900" };
    expect((await h.run(post({ ...another(), ...fast }))).status).toBe(200);
    expect(received).toHaveLength(1);
    const urlName = { ...another(), name: "cheap-pills.com" };
    expect((await h.run(post({ ...urlName, ...fast }))).status).toBe(200);
    expect(received).toHaveLength(1);
    expect(h.log.at(-1)).toMatchObject({ result: "spam", spamSignals: ["name-is-url", "fast-submit"] });
    // The same name without JavaScript (no typing time): one signal, sent.
    expect((await h.action(noJsPost({ ...another(), name: "cheap-pills.com" }))) as Response).toMatchObject({
      status: 303,
    });
    expect(received).toHaveLength(2);
    // A value that is no typing time (text, a negative number) counts as none.
    expect(
      (await h.run(post({ ...another(), name: "cheap-pills.com", [typingTimeField.name]: "-5" }))).status,
    ).toBe(200);
    expect(received).toHaveLength(3);
  });

  it("limits each client to 5 valid submissions, answering 429 with Retry-After; invalid ones do not count", async () => {
    functionAnswers();
    const h = await harness();
    const client = "203.0.113.9";
    for (let i = 0; i < 3; i++) expect((await h.run(post({ ...form, name: "" }), client)).status).toBe(400);
    for (let i = 0; i < 5; i++) expect((await h.run(post(another()), client)).status).toBe(200);
    const sixth = another();
    const limited = await h.run(post(sixth), client);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(limited.data.notice).toEqual({ kind: "error", ...contactNotices.tooManyRequests });
    expect(limited.data.values).toEqual(sixth);
    expect(h.log.at(-1)).toMatchObject({ result: "rate-limited", rateLimitScope: "client" });
    expect(received).toHaveLength(5);
    // A refused lead is not kept either.
    expect(h.rows()).toHaveLength(5);
    expect(h.rows().some((row) => row.message === sixth.message)).toBe(false);
    // Another client still gets through.
    expect((await h.run(post(another()), "198.51.100.1")).status).toBe(200);
  });

  it("applies the global ceiling to clients it cannot identify", async () => {
    functionAnswers();
    const h = await harness({ limits: { perClient: 5, globalPerMinute: 2 } });
    expect((await h.run(post(another()))).status).toBe(200);
    expect((await h.run(post(another()))).status).toBe(200);
    const limited = await h.run(post(another()));
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(59);
    expect(h.log.at(-1)).toMatchObject({ result: "rate-limited", rateLimitScope: "global" });
    // The ceiling is everybody's: an identified client is refused too.
    expect((await h.run(post(another()), "198.51.100.7")).status).toBe(429);
    expect(received).toHaveLength(2);
  });

  it("refuses other methods with 405 and Allow", async () => {
    const h = await harness();
    const answer = await h.run(new Request("http://127.0.0.1/?index", { method: "PUT", body: "a=b" }));
    expect(answer.status).toBe(405);
    expect(answer.headers.get("allow")).toBe("GET, HEAD, POST");
    expect(h.log[0]).toMatchObject({ result: "method-not-allowed" });
  });

  it("refuses bodies over 16 KB (413) and non-form encodings (415), storing nothing", async () => {
    const h = await harness();
    const big = await h.run(post({ ...form, message: "m".repeat(17_000) }));
    expect(big.status).toBe(413);
    const json = await h.run(
      new Request("http://127.0.0.1/?index", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(form),
      }),
    );
    expect(json.status).toBe(415);
    expect(json.headers.get("accept")).toContain("application/x-www-form-urlencoded");
    expect(received).toHaveLength(0);
    expect(h.rows()).toEqual([]);
  });

  it("treats a repeated field or a file as a validation error, and ignores unknown fields", async () => {
    functionAnswers();
    const h = await harness();
    const repeated = await h.run(
      new Request("http://127.0.0.1/?index", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams([...Object.entries(form), ["email", "eve@example.com"]]).toString(),
      }),
    );
    expect(repeated.status).toBe(400);
    expect(repeated.data).toMatchObject({
      field: "email",
      notice: { description: contactValidationMessages.notText },
    });

    const multipart = new FormData();
    for (const [key, value] of Object.entries(form)) multipart.set(key, value);
    multipart.set("message", new File(["long enough message"], "message.txt"));
    const file = await h.run(new Request("http://127.0.0.1/?index", { method: "POST", body: multipart }));
    expect(file.status).toBe(400);
    expect(file.data).toMatchObject({
      field: "message",
      notice: { description: contactValidationMessages.notText },
    });

    const unknown = await h.run(post({ ...form, role: "admin", __proto__: "x" }));
    expect(unknown.status).toBe(200);
    expect(received.map((call) => call.body)).toEqual([form]);
    expect(h.rows().map(fieldsOf)).toEqual([form]);
  });

  it("a name with a line break and a mail header is refused with the Validation Error notice, nothing sent or kept", async () => {
    const h = await harness();
    const answer = unwrap(await h.action(noJsPost({ ...form, name: "Ali\r\nBcc: x@evil.example" })));
    expect(answer.status).toBe(400);
    expect(answer.data.notice).toEqual({
      kind: "error",
      title: contactNotices.validationTitle,
      description: said("name").notOneLine,
    });
    expect(received).toHaveLength(0);
    expect(h.rows()).toEqual([]);
  });

  it("a flood of spam is bounded by the limits: 70 honeypot hits from one client store 5, then 429", async () => {
    functionAnswers();
    const h = await harness({ limits: { perClient: 5, globalPerMinute: 60 } });
    const bot = "203.0.113.66";
    const statuses: number[] = [];
    for (let i = 0; i < 70; i++)
      statuses.push((await h.run(post({ ...another(), [honeypotField.name]: "bot" }), bot)).status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(65);
    expect(h.rows()).toHaveLength(5);
    expect(received).toHaveLength(0);
    expect(h.log.filter((outcome) => outcome.result === "spam")).toHaveLength(5);
    // Another client is untouched (a refused client never spends the ceiling's points).
    expect((await h.run(post(another()))).status).toBe(200);
    expect(received).toHaveLength(1);
  });

  it("a store that fails after asking the limit charges one point, not two (issue 40)", async () => {
    const h = await harness({ limits: { perClient: 2, globalPerMinute: 60 }, failAfterLimit: true });
    const client = "203.0.113.7";
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await h.run(post(another()), client)).status);
    expect(statuses).toEqual([502, 502, 429]);
  });

  it("invalid submissions consume no limit either (61 of them against a ceiling of 60, then a valid one)", async () => {
    functionAnswers();
    const h = await harness({ limits: { perClient: 5, globalPerMinute: 60 } });
    for (let i = 0; i < 61; i++)
      expect((await h.run(post({ ...form, email: "nope" }), "203.0.113.7")).status).toBe(400);
    expect((await h.run(post(form), "203.0.113.7")).status).toBe(200);
    expect(received).toHaveLength(1);
  });

  it("duplicates consume no limit: reloading a sent page never locks anyone out", async () => {
    functionAnswers();
    const h = await harness({ limits: { perClient: 1, globalPerMinute: 60 } });
    expect((await h.run(post(form), "203.0.113.8")).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await h.run(post(form), "203.0.113.8")).status).toBe(200);
    expect(received).toHaveLength(1);
    expect((await h.run(post(another()), "203.0.113.8")).status).toBe(429);
  });
});
