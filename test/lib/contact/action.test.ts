import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { delay, http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

import { contactNotices, contactValidationMessages, honeypotField } from "~/content/contact-form";
import { createContactAction } from "~/lib/contact/action.server";
import { createInboxSink } from "~/lib/contact/inbox-sink.server";
import type { ContactOutcome } from "~/lib/contact/log.server";
import { createRateLimiter } from "~/lib/contact/rate-limit.server";
import type { ContactSink } from "~/lib/contact/sink.server";
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

function post(fields: Record<string, string>, headers: Record<string, string> = {}) {
  return new Request("http://127.0.0.1/?index", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(fields).toString(),
  });
}

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
    for (let i = 0; i < 5; i++) expect((await run(post(form, client))).status).toBe(200);
    const limited = await run(post(form, client));
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(limited.data.notice).toEqual({ kind: "error", ...contactNotices.tooManyRequests });
    expect(limited.data.values).toEqual(form);
    expect(sink.sent).toHaveLength(5);
    // Another client still gets through.
    expect((await run(post(form, { "x-test-client": "198.51.100.1" }))).status).toBe(200);
  });

  it("applies the global ceiling to clients it cannot identify", async () => {
    const { run } = makeAction(okSink(), { perClient: 5, globalPerMinute: 2 });
    expect((await run(post(form))).status).toBe(200);
    expect((await run(post(form))).status).toBe(200);
    const limited = await run(post(form));
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
    // Large messages make interleaving likely if writes were not serialized.
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
    // The honeypot counts against the limit (a bot is a client too), so two get through.
    const action = actionWith(failing, queue, { perClient: 2, globalPerMinute: 60 });
    expect(unwrap(await action(post({ ...form, [honeypotField.name]: "bot" }))).status).toBe(200);
    expect(unwrap(await action(post({ ...form, email: "nope" }))).status).toBe(400);
    expect(unwrap(await action(post(form))).status).toBe(502);
    expect(unwrap(await action(post(form))).status).toBe(429);
    expect(calls).toEqual(["keep http with id ada@example.com"]);
  });
});
