import { describe, expect, it } from "vitest";

import { networkErrorCode, outcomeOfNetworkError, outcomeOfStatus } from "~/lib/leads/call-outcome";

/** The outcome table of a call, row by row (decisions: "Outcome of a call"). */
describe("the outcome of a call", () => {
  it("any 4xx, a 500, 502 or 503 is a sure failure (resent under the same key)", () => {
    for (const status of [400, 401, 403, 404, 409, 422, 429, 499, 500, 502, 503])
      expect(outcomeOfStatus(status), String(status)).toBe("sure-failure");
  });

  it("a 504, and any status the table does not name, is unknown (held, never resent by a machine)", () => {
    for (const status of [504, 501, 505, 507, 520, 524, 301, 304, 200])
      expect(outcomeOfStatus(status), String(status)).toBe("unknown");
  });

  it("no connection made is a sure failure; a connection lost once made, or an error without a code, is unknown", () => {
    for (const code of [
      "ECONNREFUSED",
      "ENOTFOUND",
      "EAI_AGAIN",
      "EHOSTUNREACH",
      "ENETUNREACH",
      "UND_ERR_CONNECT_TIMEOUT",
    ])
      expect(outcomeOfNetworkError(code), code).toBe("sure-failure");
    for (const code of [
      "ECONNRESET",
      "EPIPE",
      "UND_ERR_SOCKET",
      "UND_ERR_HEADERS_TIMEOUT",
      "ETIMEDOUT",
      undefined,
    ])
      expect(outcomeOfNetworkError(code), String(code)).toBe("unknown");
  });

  it("finds undici's code under fetch's error, at any of a few levels", () => {
    const refused = new TypeError("fetch failed", {
      cause: Object.assign(new Error("connect"), { code: "ECONNREFUSED" }),
    });
    expect(networkErrorCode(refused)).toBe("ECONNREFUSED");
    const nested = new Error("outer", {
      cause: new TypeError("fetch failed", { cause: { code: "UND_ERR_SOCKET" } }),
    });
    expect(networkErrorCode(nested)).toBe("UND_ERR_SOCKET");
    expect(networkErrorCode(new TypeError("fetch failed"))).toBeUndefined();
  });
});
