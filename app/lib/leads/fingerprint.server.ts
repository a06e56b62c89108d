import { createHash } from "node:crypto";

import type { ContactRequest } from "~/lib/contact/schema";

/**
 * What makes two submissions the same lead (decision 026): the e-mail in any case and the same
 * message. A `.server` module: a synchronous SHA-256 from node:crypto, which browsers lack.
 */
export function fingerprintOf(request: Pick<ContactRequest, "email" | "message">): string {
  return createHash("sha256")
    .update(JSON.stringify([request.email.trim().toLowerCase(), request.message]))
    .digest("hex");
}
