import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";

import { createSupabaseSink } from "~/lib/leads/supabase-sink.server";

import {
  contactFunctionHandlers,
  MOCK_FAIL_WORD,
  MOCK_TIMEOUT_WORD,
} from "../../../mocks/contact-function.js";
import { contactRequest } from "../../support/contact-request";

/** The handlers `npm run dev` uses with MOCKS=true, driven through the real supabase-js client. */

const request = (message: string) => contactRequest({ name: "Dev", email: "dev@example.com", message });

const sink = createSupabaseSink({ url: "http://127.0.0.1:54321", anonKey: "mock-anon-key", timeoutMs: 200 });
const server = setupServer();
/** The Idempotency-Key of every call the mocks received. */
const keys: (string | null)[] = [];
beforeAll(() => {
  server.listen({ onUnhandledFrame: "error" });
  server.events.on("request:start", ({ request: call }) => {
    keys.push(call.headers.get("idempotency-key"));
  });
});
afterEach(() => {
  server.resetHandlers();
  keys.length = 0;
});
afterAll(() => server.close());

describe("dev mocks for send-contact-email", () => {
  it("succeed by default, see the request body and get the lead id as Idempotency-Key", async () => {
    const seen: unknown[] = [];
    server.use(...contactFunctionHandlers({ onRequest: (body) => seen.push(body) }));
    expect(await sink.send(request("Please automate our invoices"), { idempotencyKey: "lead-1" })).toEqual({
      ok: true,
    });
    expect(seen).toEqual([request("Please automate our invoices")]);
    expect(keys).toEqual(["lead-1"]);
  });

  it(`fail when the message contains "${MOCK_FAIL_WORD}"`, async () => {
    server.use(...contactFunctionHandlers());
    expect(
      await sink.send(request(`testing ${MOCK_FAIL_WORD} please`), { idempotencyKey: "lead-2" }),
    ).toMatchObject({
      ok: false,
      reason: "http",
      status: 500,
    });
    expect(keys).toEqual(["lead-2"]);
  });

  it(`hang when the message contains "${MOCK_TIMEOUT_WORD}", so the timeout answers (the function may have run)`, async () => {
    server.use(...contactFunctionHandlers());
    expect(
      await sink.send(request(`testing ${MOCK_TIMEOUT_WORD} please`), { idempotencyKey: "lead-3" }),
    ).toMatchObject({
      ok: false,
      reason: "timeout",
      possiblyDelivered: true,
    });
  });

  it("fail every call in fail mode (MOCKS_MODE=fail)", async () => {
    server.use(...contactFunctionHandlers({ failAll: true }));
    expect(
      await sink.send(request("Please automate our invoices"), { idempotencyKey: "lead-4" }),
    ).toMatchObject({
      ok: false,
      status: 500,
    });
  });
});
