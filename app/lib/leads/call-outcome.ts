/**
 * What each kind of answer from the function means for the lead: the one table of "Outcome of a
 * call" (docs/requirements.md, decision 032). A sure failure is resent by the dispatcher under the
 * same key (dead after the set attempts); an unknown outcome may have reached the function, so it
 * is held as possibly delivered and never resent by a machine. Whatever this table does not name
 * is unknown: a lead is never resent on a guess.
 */
export type CallOutcome = "sure-failure" | "unknown";

/** HTTP statuses that say the function did not run: any 4xx, 500, 502 and 503. A 504 does not (a gateway gave up, the function may have run). */
export function outcomeOfStatus(status: number): CallOutcome {
  if (status >= 400 && status < 500) return "sure-failure";
  return status === 500 || status === 502 || status === 503 ? "sure-failure" : "unknown";
}

/**
 * The error codes that say no connection was ever made (the request cannot have arrived): refused,
 * no such host, no route, a connect timeout. A connection lost after it was made (a reset, a
 * socket closed by the other side, a timeout waiting for headers) may have carried the whole
 * request: unknown.
 */
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

/** The code of the error under a failed fetch (undici puts it on `cause`, sometimes one level deeper). */
export function networkErrorCode(error: unknown): string | undefined {
  for (let current = error, depth = 0; current && typeof current === "object" && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string") return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
