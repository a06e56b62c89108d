/**
 * What each kind of answer from the function means for the lead ("Outcome of a call",
 * docs/lead-store.md): a sure failure is resent; anything else is unknown, held, never resent.
 */
export type CallOutcome = "sure-failure" | "unknown";

/** A 504 is no sure failure: a gateway gave up, the function may have run. */
export function outcomeOfStatus(status: number): CallOutcome {
  if (status >= 400 && status < 500) return "sure-failure";
  return status === 500 || status === 502 || status === 503 ? "sure-failure" : "unknown";
}

/** No connection was made; one lost after (a reset) may have carried it all. */
const NO_CONNECTION_CODES = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EAI_NONAME",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EHOSTDOWN",
  "EADDRNOTAVAIL",
  "UND_ERR_CONNECT_TIMEOUT",
]);

export function outcomeOfNetworkError(code: string | undefined): CallOutcome {
  return code !== undefined && NO_CONNECTION_CODES.has(code) ? "sure-failure" : "unknown";
}

/** The code under a failed fetch (undici puts it on `cause`, sometimes deeper). */
export function networkErrorCode(error: unknown): string | undefined {
  for (let current = error, depth = 0; current && typeof current === "object" && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string") return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
