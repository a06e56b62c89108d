import { randomBytes } from "node:crypto";

/** A fresh, unguessable nonce (144 bits, base64) for one response's Content-Security-Policy. */
export function createNonce(): string {
  return randomBytes(18).toString("base64");
}

export interface SecurityHeaderOptions {
  /**
   * What lets this document's own scripts run: `'nonce-…'` for a document rendered for one
   * request, or one `'sha256-…'` per inline script for the cached home document
   * (docs/decisions/011-content-security-policy.md).
   */
  scriptSources: readonly string[];
  /** The request arrived over HTTPS per a trusted proxy, or FORCE_HTTPS is set. */
  https: boolean;
  gaMeasurementId?: string;
}

/**
 * What gtag.js (GA4) loads and calls, per Google's CSP guidance. Nothing of it
 * is in the policy unless GA_MEASUREMENT_ID is set.
 */
const GOOGLE_ANALYTICS = {
  // With 'strict-dynamic' a CSP3 browser ignores this host and trusts gtag.js because the
  // page's own allowed inline script inserts it; the host is for browsers that only know CSP2.
  scriptSrc: ["https://www.googletagmanager.com"],
  connectSrc: [
    "https://*.google-analytics.com",
    "https://*.analytics.google.com",
    "https://*.googletagmanager.com",
  ],
  imgSrc: ["https://*.google-analytics.com", "https://*.googletagmanager.com"],
};

export function contentSecurityPolicy({ scriptSources, gaMeasurementId }: SecurityHeaderOptions): string {
  if (scriptSources.length === 0) throw new Error("A document policy needs at least one script source.");
  const scriptSrc = [...scriptSources, "'strict-dynamic'"];
  const connectSrc = ["'self'"];
  const imgSrc = ["'self'", "data:"];
  if (gaMeasurementId) {
    scriptSrc.push(...GOOGLE_ANALYTICS.scriptSrc);
    connectSrc.push(...GOOGLE_ANALYTICS.connectSrc);
    imgSrc.push(...GOOGLE_ANALYTICS.imgSrc);
  }
  return [
    "default-src 'self'",
    `script-src ${scriptSrc.join(" ")}`,
    "style-src 'self'",
    `img-src ${imgSrc.join(" ")}`,
    "font-src 'self'",
    `connect-src ${connectSrc.join(" ")}`,
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

const STRICT_TRANSPORT_SECURITY = "max-age=31536000; includeSubDomains";

/** Headers that every response of ours carries, HTML or not. */
function baseHeaders(https: boolean): Record<string, string> {
  const headers: Record<string, string> = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
    "Permissions-Policy": [
      "accelerometer=()",
      "autoplay=()",
      "browsing-topics=()",
      "camera=()",
      "display-capture=()",
      "encrypted-media=()",
      "fullscreen=(self)",
      "geolocation=()",
      "gyroscope=()",
      "hid=()",
      "idle-detection=()",
      "magnetometer=()",
      "microphone=()",
      "midi=()",
      "payment=()",
      "publickey-credentials-get=()",
      "screen-wake-lock=()",
      "serial=()",
      "usb=()",
      "xr-spatial-tracking=()",
    ].join(", "),
  };
  // Over plain HTTP the header is ignored by browsers and would only lock out a
  // misconfigured deployment, so it is sent only when HTTPS is known.
  if (https) headers["Strict-Transport-Security"] = STRICT_TRANSPORT_SECURITY;
  return headers;
}

/** Everything an HTML document needs: its CSP plus the base headers. */
export function securityHeaders(options: SecurityHeaderOptions): Record<string, string> {
  return { "Content-Security-Policy": contentSecurityPolicy(options), ...baseHeaders(options.https) };
}

/**
 * For responses that are never rendered as a document (single-fetch data,
 * robots.txt, health checks): no script may run in them if someone opens one
 * directly, so the policy denies everything.
 */
export function nonDocumentSecurityHeaders(https: boolean): Record<string, string> {
  return {
    "Content-Security-Policy":
      "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
    ...baseHeaders(https),
  };
}

export function applyHeaders(target: Headers, headers: Record<string, string>): void {
  for (const [name, value] of Object.entries(headers)) target.set(name, value);
}
