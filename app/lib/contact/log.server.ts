import { randomUUID } from "node:crypto";

import type { ContactResult } from "~/lib/contact/events.server";

/** One submission as ops read it (the `contact_submission` log line). No personal data, no message. */
export interface ContactOutcome {
  requestId: string;
  result: ContactResult;
  status: number;
  durationMs: number;
  sink?: string;
  /** Which field failed validation (a field name, never its value). */
  field?: string;
  /** Failure class from the sink, e.g. "http" with the function's status. */
  reason?: string;
  functionStatus?: number;
  detail?: string;
  rateLimitScope?: string;
  /** The signals that held a submission as spam (names from a fixed table, never what was typed). */
  spamSignals?: readonly string[];
  /** Where a lead the function did not confirm is kept: the lead store, or stderr as a last resort. */
  keptIn?: "store" | "stderr";
}

export type ContactLogger = (outcome: ContactOutcome) => void;

/** One JSON line per submission; errors on stderr so they stand out. */
export const logContactOutcome: ContactLogger = (outcome) => {
  const line = JSON.stringify({ event: "contact_submission", ...outcome });
  if (outcome.status >= 500) console.error(line);
  else console.log(line);
};

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The proxy's request id when it sent a sane one, else a fresh one. */
export function requestIdFor(request: Request): string {
  const given = request.headers.get("x-request-id");
  return given && REQUEST_ID.test(given) ? given : randomUUID();
}
