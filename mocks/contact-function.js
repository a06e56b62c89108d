// MSW handlers standing in for the Supabase function `send-contact-email`, for `npm run dev`
// with MOCKS=true (see server/dev.ts) and for tests. Plain JavaScript so Node loads it as is.
import { delay, http, HttpResponse } from "msw";

/** A message containing this word makes the mocked function fail (HTTP 500). */
export const MOCK_FAIL_WORD = "mock-fail";
/** A message containing this word makes the mocked function hang, so the server's timeout answers. */
export const MOCK_TIMEOUT_WORD = "mock-timeout";

/**
 * @param {{ failAll?: boolean, onRequest?: (body: unknown) => void }} [options]
 *   failAll: every call fails (MOCKS_MODE=fail).
 */
export function contactFunctionHandlers({ failAll = false, onRequest } = {}) {
  return [
    http.post("*/functions/v1/send-contact-email", async ({ request }) => {
      /** @type {unknown} */
      const body = await request.json().catch(() => null);
      onRequest?.(body);
      const message =
        body && typeof body === "object" && "message" in body && typeof body.message === "string"
          ? body.message
          : "";
      if (failAll || message.includes(MOCK_FAIL_WORD)) {
        return HttpResponse.json({ error: "mocked failure" }, { status: 500 });
      }
      if (message.includes(MOCK_TIMEOUT_WORD)) {
        await delay("infinite");
      }
      return HttpResponse.json({ success: true });
    }),
  ];
}
