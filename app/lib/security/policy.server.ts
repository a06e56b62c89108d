import { env } from "~/lib/env.server";

import { nonDocumentSecurityHeaders, securityHeaders } from "./headers.server";
import { isHttpsRequest } from "./proxy.server";

/** HSTS is sent when HTTPS is known: forced by configuration, or reported by a trusted proxy. */
export function arrivedOverHttps(request: Request): boolean {
  return env.FORCE_HTTPS || isHttpsRequest(request, env.TRUST_PROXY);
}

/** The headers of one HTML document, for what lets its scripts run (a nonce or their hashes). */
export function documentHeadersFor(
  request: Request,
  scriptSources: readonly string[],
): Record<string, string> {
  return securityHeaders({
    scriptSources,
    https: arrivedOverHttps(request),
    gaMeasurementId: env.GA_MEASUREMENT_ID,
  });
}

/** The headers of a response that is not a document (data, text, JSON). */
export function nonDocumentHeadersFor(request: Request): Record<string, string> {
  return nonDocumentSecurityHeaders(arrivedOverHttps(request));
}
