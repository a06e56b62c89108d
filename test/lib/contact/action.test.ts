import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { delay, http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

import { contactNotices } from "~/content/contact-form";
import { createContactAction } from "~/lib/contact/action.server";
import { answerAsDataField } from "~/lib/contact/answer";
import type { ContactOutcome } from "~/lib/contact/log.server";
import { createSupabaseSink } from "~/lib/leads/supabase-sink.server";
import type { ContactActionData } from "~/lib/contact/types";
import { openDatabase } from "~/lib/leads/database.server";
import { createContactLimits } from "~/lib/leads/limits.server";
import { createLeadStore, type LeadStore, StoreUnavailableError } from "~/lib/leads/store.server";

import { type LeadRow, readLeads } from "../../support/leads";
import { contactRequest } from "../../support/contact-request";

/**
 * The contact action's wiring of the lease, the limits and the store's faults, at unit level, where
 * HTTP cannot reach (or only at great cost). Over a real SQLite lead store and the real supabase-js
 * client, whose calls MSW answers in place of the function `send-contact-email`. What a visitor meets
 * is proved over HTTP (test/http), the store's rules by test/lib/leads/store-contract.ts.
 */

// MSW answers before anything leaves the process; the address is loopback anyway.
const SUPABASE_URL = "http://127.0.0.1:54321";
const ANON_KEY = "test-anon-key";
const FUNCTION_URL = "*/functions/v1/send-contact-email";

/** The bodies of the function's calls, in order. */
const received: unknown[] = [];

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

function functionAnswers(
  reply: () => Response | Promise<Response> = () => HttpResponse.json({ success: true }),
) {
  server.use(
    http.post(FUNCTION_URL, async ({ request }) => {
      received.push(await request.clone().json());
      return reply();
    }),
  );
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

/** A submission from the enhanced form, which asks for its answer as data. */
function post(fields: Record<string, string>) {
  return new Request("http://127.0.0.1/?index", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ [answerAsDataField.name]: answerAsDataField.value, ...fields }).toString(),
  });
}

/** A different lead each time: an identical one is the same lead (decision 026). */
let serial = 0;
const another = () => ({ ...form, message: `${form.message} (request ${++serial})` });

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

interface HarnessOptions {
  limits?: { perClient: number; globalPerMinute: number };
  /** "unavailable": the store never opened. */
  store?: "unavailable";
  /** The store asks the limit, then fails (a statement after it timed out). */
  failAfterLimit?: boolean;
}

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The action as the server builds it, over a fresh SQLite lead store and the function. */
async function harness(options: HarnessOptions = {}) {
  const dir = mkdtempSync(join(tmpdir(), "contact-action-"));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  let file = join(dir, "data", "leads.sqlite");
  if (options.store === "unavailable") {
    // A folder that cannot be created (a regular file is in the way): the store cannot open.
    writeFileSync(join(dir, "blocker"), "x");
    file = join(dir, "blocker", "leads.sqlite");
  }
  const store = createLeadStore({
    database: openDatabase({ file }),
    leaseMs: LEASE_MS,
    retry: { initialMs: 30_000, maxMs: 3_600_000, maxAttempts: 3 },
    random: () => 0.5,
    reconnectMs: 600_000,
    log: () => undefined,
  });
  cleanups.push(() => store.close().catch(() => undefined));
  await store.start();

  // Wrapped, not replaced: every other method is the store's.
  const failingAfterLimit: LeadStore = {
    ...store,
    admit: async (_request, admitOptions) => {
      await admitOptions.allow();
      throw new StoreUnavailableError("statement timeout");
    },
  };
  const log: ContactOutcome[] = [];
  const lastResort: string[] = [];
  const limits = options.limits ?? { perClient: 5, globalPerMinute: 60 };
  const action = createContactAction({
    leads: {
      store: options.failAfterLimit ? failingAfterLimit : store,
      sink: supabaseSink(),
      limits: createContactLimits({ ...limits, windowSeconds: 600 }),
    },
    log: (outcome) => log.push(outcome),
    lastResort: (line) => lastResort.push(line),
  });
  return {
    store,
    log,
    lastResort,
    run: async (request: Request, client?: string) => unwrap(await action(request, client)),
    rows: (): LeadRow[] => readLeads(file),
  };
}

describe("contact action: the call to the function and the store under it", () => {
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
});

describe("contact action: the limits, whatever the store and the client", () => {
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
});
