import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { delay, http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

import { contactNotices, contactValidationMessages, honeypotField } from "~/content/contact-form";
import { createContactAction, type Delivery } from "~/lib/contact/action.server";
import { answerAsDataField, contactSentLocation } from "~/lib/contact/answer";
import { createInboxSink } from "~/lib/contact/inbox-sink.server";
import type { ContactOutcome } from "~/lib/contact/log.server";
import { createRateLimiter } from "~/lib/contact/rate-limit.server";
import { createDeliveryLedger } from "~/lib/contact/delivery-ledger.server";
import type { ContactRequest } from "~/lib/contact/schema";
import type { ContactSink, SendResult } from "~/lib/contact/sink.server";
import { createSupabaseSink } from "~/lib/contact/supabase-sink.server";
import type { ContactActionData } from "~/lib/contact/types";
import type { UndeliveredQueue } from "~/lib/contact/undelivered.server";

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

const server = setupServer();

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
  server.resetHandlers();
  received.length = 0;
});
afterAll(() => server.close());

const form = {
  name: "Ada Lovelace",
  email: "ada@example.com",
  phone: "+1 513 555 0100",
  company: "Analytical Engines",
  website: "https://example.com",
  companySize: "11-50",
  industry: "Manufacturing",
  message: "We want to automate our invoicing.",
};

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

/** A different request each time: the action answers an identical one without sending it again. */
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

function makeAction(sink: ContactSink, limits = { perClient: 5, globalPerMinute: 60 }) {
  const log: ContactOutcome[] = [];
  const action = createContactAction({
    sink,
    limiter: createRateLimiter({ ...limits, windowMs: 600_000 }),
    clientOf: (request) => request.headers.get("x-test-client") ?? undefined,
    log: (outcome) => log.push(outcome),
  });
  return { run: async (request: Request) => unwrap(await action(request)), log };
}

const supabaseSink = (timeoutMs = 10_000) =>
  createSupabaseSink({ url: SUPABASE_URL, anonKey: ANON_KEY, timeoutMs });

describe("contact action with the Supabase function (real supabase-js, function mocked by MSW)", () => {
  it("sends the exact JSON body with the anon key, and answers success with the fields cleared", async () => {
    server.use(
      http.post(FUNCTION_URL, async ({ request }) => {
        await record(request);
        return HttpResponse.json({ success: true });
      }),
    );
    const { run, log } = makeAction(supabaseSink());
    const answer = await run(post(form));

    expect(received).toHaveLength(1);
    expect(received[0]?.body).toEqual(form);
    expect(Object.keys(received[0]?.body as object)).toEqual([
      "name",
      "email",
      "phone",
      "company",
      "website",
      "companySize",
      "industry",
      "message",
    ]);
    expect(received[0]?.headers.get("apikey")).toBe(ANON_KEY);
    expect(received[0]?.headers.get("authorization")).toBe(`Bearer ${ANON_KEY}`);
    expect(received[0]?.headers.get("content-type")).toBe("application/json");

    expect(answer.status).toBe(200);
    expect(answer.headers.get("cache-control")).toBe("no-store");
    expect(answer.data).toEqual({ notice: { kind: "success", ...contactNotices.success } });
    expect(log).toEqual([expect.objectContaining({ result: "sent", status: 200, sink: "supabase" })]);
  });

  it("sends optional fields as empty strings and trimmed required ones", async () => {
    server.use(
      http.post(FUNCTION_URL, async ({ request }) => (await record(request), HttpResponse.json({}))),
    );
    const { run } = makeAction(supabaseSink());
    await run(post({ name: " Ada ", email: "ada@example.com", message: "  Automate my invoices  " }));
    expect(received[0]?.body).toEqual({
      name: "Ada",
      email: "ada@example.com",
      phone: "",
      company: "",
      website: "",
      companySize: "",
      industry: "",
      message: "Automate my invoices",
    });
  });

  const failures: Array<[string, () => Response | Promise<Response>, number]> = [
    ["a 4xx answer", () => HttpResponse.json({ error: "bad request" }, { status: 400 }), 502],
    ["a 5xx answer", () => HttpResponse.json({ error: "boom" }, { status: 500 }), 502],
    [
      "a relay error",
      () => new HttpResponse("relay", { status: 502, headers: { "x-relay-error": "true" } }),
      502,
    ],
    ["a network failure", () => HttpResponse.error(), 502],
  ];
  it.each(failures)(
    "%s gives the error notice, keeps the values and logs no personal data",
    async (_label, reply, status) => {
      server.use(http.post(FUNCTION_URL, async ({ request }) => (await record(request), reply())));
      const { run, log } = makeAction(supabaseSink());
      const answer = await run(post(form));
      expect(received).toHaveLength(1);
      expect(answer.status).toBe(status);
      expect(answer.headers.get("cache-control")).toBe("no-store");
      expect(answer.data.notice).toEqual({ kind: "error", ...contactNotices.sendFailed });
      expect(answer.data.values).toEqual(form);
      expect(log).toHaveLength(1);
      expect(log[0]).toMatchObject({ result: "send-failed", status });
      const line = JSON.stringify(log[0]);
      for (const value of Object.values(form)) expect(line).not.toContain(value);
    },
  );

  it("gives up on a hanging function after the configured timeout (504)", async () => {
    server.use(
      http.post(FUNCTION_URL, async () => {
        await delay("infinite");
        return HttpResponse.json({});
      }),
    );
    const { run, log } = makeAction(supabaseSink(150));
    const answer = await run(post(form));
    expect(answer.status).toBe(504);
    expect(answer.data.notice).toEqual({ kind: "error", ...contactNotices.sendFailed });
    expect(answer.data.values).toEqual(form);
    expect(log[0]).toMatchObject({ result: "timeout", status: 504, reason: "timeout" });
  });

  it("does not call the function when validation fails, and says why", async () => {
    const reached = vi.fn();
    server.use(http.post(FUNCTION_URL, () => (reached(), HttpResponse.json({}))));
    const { run, log } = makeAction(supabaseSink());
    const answer = await run(post({ ...form, email: "ada at example.com" }));
    expect(reached).not.toHaveBeenCalled();
    expect(answer.status).toBe(400);
    expect(answer.data).toEqual({
      notice: { kind: "error", title: "Validation Error", description: contactValidationMessages.email },
      values: { ...form, email: "ada at example.com" },
      field: "email",
    });
    expect(log[0]).toMatchObject({ result: "invalid", field: "email" });
  });
});

describe("contact action: abuse protection", () => {
  const okSink = (): ContactSink & { sent: unknown[] } => {
    const sent: unknown[] = [];
    return { mode: "inbox-file", sent, send: async (request) => (sent.push(request), { ok: true }) };
  };

  it("a filled honeypot gets the success notice, sends nothing and is logged", async () => {
    const sink = okSink();
    const { run, log } = makeAction(sink);
    const answer = await run(post({ ...form, [honeypotField.name]: "http://spam.example" }));
    expect(answer.status).toBe(200);
    expect(answer.data.notice).toEqual({ kind: "success", ...contactNotices.success });
    expect(sink.sent).toHaveLength(0);
    expect(log[0]).toMatchObject({ result: "honeypot" });
    // An empty honeypot (what people send) goes through.
    await run(post({ ...form, [honeypotField.name]: "" }));
    expect(sink.sent).toHaveLength(1);
  });

  it("limits each client to 5 valid submissions, answering 429 with Retry-After; invalid ones do not count", async () => {
    const sink = okSink();
    const { run } = makeAction(sink);
    const client = { "x-test-client": "203.0.113.9" };
    for (let i = 0; i < 3; i++) expect((await run(post({ ...form, name: "" }, client))).status).toBe(400);
    for (let i = 0; i < 5; i++) expect((await run(post(another(), client))).status).toBe(200);
    const sixth = another();
    const limited = await run(post(sixth, client));
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(limited.data.notice).toEqual({ kind: "error", ...contactNotices.tooManyRequests });
    expect(limited.data.values).toEqual(sixth);
    expect(sink.sent).toHaveLength(5);
    // Another client still gets through.
    expect((await run(post(another(), { "x-test-client": "198.51.100.1" }))).status).toBe(200);
  });

  it("applies the global ceiling to clients it cannot identify", async () => {
    const { run } = makeAction(okSink(), { perClient: 5, globalPerMinute: 2 });
    expect((await run(post(another()))).status).toBe(200);
    expect((await run(post(another()))).status).toBe(200);
    const limited = await run(post(another()));
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(59);
  });

  it("refuses other methods with 405 and Allow", async () => {
    const { run } = makeAction(okSink());
    const answer = await run(new Request("http://127.0.0.1/?index", { method: "PUT", body: "a=b" }));
    expect(answer.status).toBe(405);
    expect(answer.headers.get("allow")).toBe("GET, HEAD, POST");
  });

  it("refuses bodies over 16 KB (413) and non-form encodings (415)", async () => {
    const sink = okSink();
    const { run } = makeAction(sink);
    const big = await run(post({ ...form, message: "m".repeat(17_000) }));
    expect(big.status).toBe(413);
    const json = await run(
      new Request("http://127.0.0.1/?index", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(form),
      }),
    );
    expect(json.status).toBe(415);
    expect(sink.sent).toHaveLength(0);
  });

  it("treats a repeated field or a file as a validation error, and ignores unknown fields", async () => {
    const sink = okSink();
    const { run } = makeAction(sink);
    const repeated = await run(
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
    const file = await run(new Request("http://127.0.0.1/?index", { method: "POST", body: multipart }));
    expect(file.status).toBe(400);
    expect(file.data).toMatchObject({
      field: "message",
      notice: { description: contactValidationMessages.notText },
    });

    const unknown = await run(post({ ...form, role: "admin", __proto__: "x" }));
    expect(unknown.status).toBe(200);
    expect(sink.sent).toEqual([form]);
  });

  it("60 honeypot hits consume nothing: the next real visitor still gets through", async () => {
    const sink = okSink();
    const { run, log } = makeAction(sink, { perClient: 5, globalPerMinute: 60 });
    const bot = { "x-test-client": "203.0.113.66" };
    for (let i = 0; i < 70; i++) {
      expect((await run(post({ ...another(), [honeypotField.name]: "bot" }, bot))).status).toBe(200);
    }
    expect(sink.sent).toHaveLength(0);
    // Not the global ceiling, nor the bot's own client budget: both are untouched.
    expect((await run(post(another()))).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await run(post(another(), bot))).status).toBe(200);
    expect(sink.sent).toHaveLength(6);
    expect(log.filter((outcome) => outcome.result === "honeypot")).toHaveLength(70);
  });

  it("invalid submissions consume nothing either (60 of them, then a valid one)", async () => {
    const sink = okSink();
    const { run } = makeAction(sink, { perClient: 5, globalPerMinute: 60 });
    for (let i = 0; i < 61; i++) expect((await run(post({ ...form, email: "nope" }))).status).toBe(400);
    expect((await run(post(form))).status).toBe(200);
    expect(sink.sent).toHaveLength(1);
  });
});

describe("contact action with the inbox file", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "contact-inbox-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("appends one JSON line with a timestamp per request, creating the directory", async () => {
    const file = join(dir, "nested", "inbox.jsonl");
    const { run } = makeAction(createInboxSink(file, () => new Date("2026-01-02T03:04:05.000Z")));
    expect((await run(post(form))).status).toBe(200);
    const text = await readFile(file, "utf8");
    expect(text.endsWith("\n")).toBe(true);
    expect(
      text
        .trimEnd()
        .split("\n")
        .map((line) => JSON.parse(line)),
    ).toEqual([{ receivedAt: "2026-01-02T03:04:05.000Z", ...form }]);
  });

  it("keeps every line whole under 50 concurrent submissions", async () => {
    const file = join(dir, "inbox.jsonl");
    const sink = createInboxSink(file);
    const { run } = makeAction(sink, { perClient: 100, globalPerMinute: 100 });
    // Large messages make interleaving likely if writes were not serialized (each a different request).
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        run(post({ ...form, name: `Visitor ${i}`, message: `${i} `.repeat(600) + "end" })),
      ),
    );
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    const lines = (await readFile(file, "utf8")).trimEnd().split("\n");
    expect(lines).toHaveLength(50);
    const names = lines.map((line) => (JSON.parse(line) as { name: string }).name).sort();
    expect(names).toEqual(Array.from({ length: 50 }, (_, i) => `Visitor ${i}`).sort());
  });

  it("reports a write failure as the error notice (502) with the values kept", async () => {
    // A path under a regular file cannot be created.
    const blocker = join(dir, "file");
    await import("node:fs/promises").then((fs) => fs.writeFile(blocker, "x"));
    const { run, log } = makeAction(createInboxSink(join(blocker, "inbox.jsonl")));
    const answer = await run(post(form));
    expect(answer.status).toBe(502);
    expect(answer.data.values).toEqual(form);
    expect(log[0]).toMatchObject({ result: "send-failed", sink: "inbox-file" });
  });
});

describe("contact action: what the function did not confirm is kept before the visitor is answered", () => {
  const failing: ContactSink = {
    mode: "supabase",
    send: async () => ({ ok: false, reason: "http", status: 500 }),
  };
  const succeeding: ContactSink = { mode: "supabase", send: async () => ({ ok: true }) };

  /** An undelivered queue whose writes finish only when the test says so. */
  function heldQueue() {
    const calls: string[] = [];
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const queue: UndeliveredQueue = {
      keep: async (request, failure, context) => {
        calls.push(`keep ${failure.reason} ${context.requestId ? "with id" : "no id"} ${request.email}`);
        await held;
        return "file";
      },
      markDelivered: async (request) => {
        calls.push(`delivered ${request.email}`);
        await held;
      },
      flush: async () => undefined,
    };
    return { queue, calls, release: () => release() };
  }

  const actionWith = (
    sink: ContactSink,
    queue: UndeliveredQueue,
    limits = { perClient: 5, globalPerMinute: 60 },
  ) =>
    createContactAction({
      sink,
      undelivered: queue,
      limiter: createRateLimiter({ ...limits, windowMs: 600_000 }),
      clientOf: () => "one-client",
      log: () => undefined,
    });

  it("a failure is answered only once its line is written", async () => {
    const { queue, calls, release } = heldQueue();
    let answered = false;
    const pending = actionWith(
      failing,
      queue,
    )(post(form)).then((result) => ((answered = true), unwrap(result)));
    await vi.waitFor(() => expect(calls).toEqual(["keep http with id ada@example.com"]));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(answered).toBe(false);
    release();
    const answer = await pending;
    expect(answer.status).toBe(502);
    expect(answer.data.values).toEqual(form);
  });

  it("a success supersedes a kept copy before answering", async () => {
    const { queue, calls, release } = heldQueue();
    let answered = false;
    const pending = actionWith(
      succeeding,
      queue,
    )(post(form)).then((result) => ((answered = true), unwrap(result)));
    await vi.waitFor(() => expect(calls).toEqual(["delivered ada@example.com"]));
    expect(answered).toBe(false);
    release();
    expect((await pending).status).toBe(200);
  });

  it("honeypot, invalid and rate-limited submissions are never kept", async () => {
    const { queue, calls, release } = heldQueue();
    release();
    // Neither the honeypot nor an invalid submission counts against the limit: two real ones get through.
    const action = actionWith(failing, queue, { perClient: 2, globalPerMinute: 60 });
    expect(unwrap(await action(post({ ...form, [honeypotField.name]: "bot" }))).status).toBe(200);
    expect(unwrap(await action(post({ ...form, email: "nope" }))).status).toBe(400);
    expect(unwrap(await action(post(form))).status).toBe(502);
    expect(unwrap(await action(post(form))).status).toBe(502);
    expect(unwrap(await action(post(another()))).status).toBe(429);
    expect(calls).toEqual(["keep http with id ada@example.com", "keep http with id ada@example.com"]);
  });
});

describe("contact action: every lead exactly once (decision 026)", () => {
  /** A sink whose sends finish when the test says so, counting calls. */
  function controlledSink(result: SendResult = { ok: true }) {
    const calls: ContactRequest[] = [];
    let release: () => void = () => undefined;
    let gate = Promise.resolve();
    const sink: ContactSink = {
      mode: "supabase",
      send: async (request) => {
        calls.push(request);
        await gate;
        return result;
      },
    };
    return {
      sink,
      calls,
      hold: () => {
        gate = new Promise<void>((resolve) => (release = resolve));
      },
      release: () => release(),
    };
  }

  function actionFor(
    sink: ContactSink,
    options: {
      limits?: { perClient: number; globalPerMinute: number };
      clock?: { now: number };
      undelivered?: UndeliveredQueue;
    } = {},
  ) {
    const log: ContactOutcome[] = [];
    const clock = options.clock;
    const action = createContactAction({
      sink,
      ...(options.undelivered ? { undelivered: options.undelivered } : {}),
      limiter: createRateLimiter({
        ...(options.limits ?? { perClient: 5, globalPerMinute: 60 }),
        windowMs: 600_000,
      }),
      clientOf: () => "one-client",
      log: (outcome) => log.push(outcome),
      ...(clock
        ? { ledger: createDeliveryLedger<Delivery>((d) => d.sent.ok, { now: () => clock.now }) }
        : {}),
    });
    return { action, log, run: async (request: Request) => unwrap(await action(request)) };
  }

  it("without JavaScript a success answers 303 See Other to the page with the notice, never stored", async () => {
    const { sink, calls } = controlledSink();
    const { action, log } = actionFor(sink);
    const response = await action(noJsPost(form));
    expect(response).toBeInstanceOf(Response);
    const redirect = response as Response;
    expect(redirect.status).toBe(303);
    expect(redirect.headers.get("location")).toBe(contactSentLocation);
    expect(contactSentLocation).toBe("/?contact=sent#contact-form");
    expect(redirect.headers.get("cache-control")).toBe("no-store");
    expect(redirect.headers.get("x-request-id")).toBeTruthy();
    expect(calls).toHaveLength(1);
    expect(log).toEqual([expect.objectContaining({ result: "sent", status: 303 })]);
  });

  it("without JavaScript the answers that carry the visitor's values stay direct (400, 502)", async () => {
    const invalid = unwrap(
      await actionFor(controlledSink().sink).action(noJsPost({ ...form, email: "nope" })),
    );
    expect(invalid.status).toBe(400);
    expect(invalid.data.values).toEqual({ ...form, email: "nope" });
    const failing = controlledSink({ ok: false, reason: "http", status: 500 });
    const failed = unwrap(await actionFor(failing.sink).action(noJsPost(form)));
    expect(failed.status).toBe(502);
    expect(failed.data.values).toEqual(form);
  });

  it("without JavaScript a honeypot hit is redirected like a success", async () => {
    const { sink, calls } = controlledSink();
    const response = (await actionFor(sink).action(
      noJsPost({ ...form, [honeypotField.name]: "x" }),
    )) as Response;
    expect(response.status).toBe(303);
    expect(calls).toHaveLength(0);
  });

  it("two identical requests in a row: one call, both answered with success, the second logged as duplicate", async () => {
    const { sink, calls } = controlledSink();
    const { action, log } = actionFor(sink);
    expect(((await action(noJsPost(form))) as Response).status).toBe(303);
    // The same e-mail in another case and the same message: the same request.
    const again = (await action(noJsPost({ ...form, email: form.email.toUpperCase() }))) as Response;
    expect(again.status).toBe(303);
    expect(again.headers.get("location")).toBe(contactSentLocation);
    const enhanced = unwrap(await action(post(form)));
    expect(enhanced.status).toBe(200);
    expect(enhanced.data).toEqual({ notice: { kind: "success", ...contactNotices.success } });
    expect(calls).toHaveLength(1);
    expect(log.map((outcome) => outcome.result)).toEqual(["sent", "duplicate", "duplicate"]);
    // Another message from the same person is another request.
    await action(noJsPost({ ...form, message: "And our payroll, too, please." }));
    expect(calls).toHaveLength(2);
  });

  it("two identical requests at once (a double click): one call, the later one waits for its outcome", async () => {
    const controlled = controlledSink();
    controlled.hold();
    const { run, log } = actionFor(controlled.sink);
    const first = run(post(form));
    const second = run(post(form));
    await vi.waitFor(() => expect(controlled.calls).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(log).toHaveLength(0); // the second waits, unanswered, for the first
    controlled.release();
    const answers = await Promise.all([first, second]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    expect(controlled.calls).toHaveLength(1);
    expect(log.map((outcome) => outcome.result).sort()).toEqual(["duplicate", "sent"]);
  });

  it("two identical requests at once while the function fails: one call, both get the error with their values", async () => {
    const controlled = controlledSink({ ok: false, reason: "http", status: 500 });
    controlled.hold();
    const { run, log } = actionFor(controlled.sink);
    const first = run(post(form));
    const second = run(post(form));
    await vi.waitFor(() => expect(controlled.calls).toHaveLength(1));
    controlled.release();
    const answers = await Promise.all([first, second]);
    expect(answers.map((answer) => answer.status)).toEqual([502, 502]);
    expect(answers.map((answer) => answer.data.values)).toEqual([form, form]);
    expect(controlled.calls).toHaveLength(1);
    expect(log.map((outcome) => outcome.result).sort()).toEqual(["duplicate", "send-failed"]);
  });

  it("after a failure an identical resend is a real retry: sent, and the kept copy superseded", async () => {
    let fail = true;
    const calls: ContactRequest[] = [];
    const sink: ContactSink = {
      mode: "supabase",
      send: async (request) => (calls.push(request), fail ? { ok: false, reason: "network" } : { ok: true }),
    };
    const kept: string[] = [];
    const undelivered: UndeliveredQueue = {
      keep: async (request) => (kept.push(`keep ${request.email}`), "file"),
      markDelivered: async (request) => void kept.push(`delivered ${request.email}`),
      flush: async () => undefined,
    };
    const { run, log } = actionFor(sink, { undelivered });
    expect((await run(post(form))).status).toBe(502);
    fail = false;
    expect((await run(post(form))).status).toBe(200);
    expect(calls).toHaveLength(2);
    expect(kept).toEqual(["keep ada@example.com", "delivered ada@example.com"]);
    expect(log.map((outcome) => outcome.result)).toEqual(["send-failed", "sent"]);
    // And now it is delivered: a third one is a duplicate.
    expect((await run(post(form))).status).toBe(200);
    expect(calls).toHaveLength(2);
  });

  it("remembers a delivery for 10 minutes, then an identical request is sent again", async () => {
    const clock = { now: 1_000_000 };
    const { sink, calls } = controlledSink();
    const { run } = actionFor(sink, { clock });
    await run(post(form));
    clock.now += 10 * 60_000 - 1;
    await run(post(form));
    expect(calls).toHaveLength(1);
    clock.now += 1;
    await run(post(form));
    expect(calls).toHaveLength(2);
  });

  it("duplicates are not counted by the rate limiter: reloading a sent page never locks anyone out", async () => {
    const { sink, calls } = controlledSink();
    const { run } = actionFor(sink, { limits: { perClient: 1, globalPerMinute: 60 } });
    expect((await run(post(form))).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await run(post(form))).status).toBe(200);
    expect(calls).toHaveLength(1);
    expect((await run(post(another()))).status).toBe(429);
  });

  it("a name with a line break and a mail header is refused with the Validation Error notice, nothing sent", async () => {
    const { sink, calls } = controlledSink();
    const answer = unwrap(
      await actionFor(sink).action(noJsPost({ ...form, name: "Ali\r\nBcc: x@evil.example" })),
    );
    expect(answer.status).toBe(400);
    expect(answer.data.notice).toEqual({
      kind: "error",
      title: contactNotices.validationTitle,
      description: contactValidationMessages.singleLine.name,
    });
    expect(calls).toHaveLength(0);
  });
});
