import { createHash } from "node:crypto";

import type { LeadRequest } from "~/lib/leads/sink.server";

/** How an address is compared: NFC, so "é" typed as e + U+0301 matches another keyboard's "é". */
export const emailKey = (email: string) => email.trim().normalize("NFC").toLowerCase();

/**
 * What makes two submissions the same lead (decision 026): the e-mail in any case and the same
 * message. A `.server` module: a synchronous SHA-256 from node:crypto, which browsers lack.
 */
export function fingerprintOf(request: Pick<LeadRequest, "email" | "message">): string {
  return createHash("sha256")
    .update(JSON.stringify([emailKey(request.email), request.message]))
    .digest("hex");
}
