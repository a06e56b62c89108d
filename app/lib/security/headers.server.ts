import { env } from "~/lib/env.server";

/**
 * Every security and caching header the site sends, in one module (docs/architecture.md). The
 * server sets them on every response (server/app.ts), so a route cannot forget them. A document's
 * policy allows its own scripts by hash, no nonce: one document for every cache (decision 011).
 */

/** What gtag.js (GA4) loads and calls, per Google's CSP guidance; only with GA_MEASUREMENT_ID. */
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
const WITHOUT_ANALYTICS: typeof GOOGLE_ANALYTICS = { scriptSrc: [], connectSrc: [], imgSrc: [] };

export interface PolicyOptions {
  /** One `'sha256-…'` source per script the document runs. */
  scriptHashes: readonly string[];
  gaMeasurementId?: string;
}

const HASH_SOURCE = /^'sha256-[A-Za-z0-9+/]{43}='$/;

export function contentSecurityPolicy({ scriptHashes, gaMeasurementId }: PolicyOptions): string {
  if (scriptHashes.length === 0) throw new Error("A document policy needs at least one script hash.");
  const notHash = scriptHashes.find((source) => !HASH_SOURCE.test(source));
  if (notHash) throw new Error(`Not a script hash source: ${notHash}`);
  const ga = gaMeasurementId ? GOOGLE_ANALYTICS : WITHOUT_ANALYTICS;
  return [
    "default-src 'self'",
    `script-src ${[...scriptHashes, "'strict-dynamic'", ...ga.scriptSrc].join(" ")}`,
    "style-src 'self'",
    `img-src ${["'self'", "data:", ...ga.imgSrc].join(" ")}`,
    "font-src 'self'",
    `connect-src ${["'self'", ...ga.connectSrc].join(" ")}`,
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** Every response that is not a document: nothing may run in it, opened directly. */
export const NON_DOCUMENT_POLICY =
  "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/** Cache-Control, by what a response is. */
export const CACHE_CONTROL = {
  /** Content-hashed build files (/build/…): a new file name for every change. */
  asset: "public, max-age=31536000, immutable",
  /** public/ files and the robots and sitemap texts: may change with a deploy. */
  file: "public, max-age=3600",
  /** The home page: a CDN keeps it five minutes and serves it stale while it revalidates. */
  page: "public, max-age=0, s-maxage=300, stale-while-revalidate=86400",
  /** Everything else (answers to one visitor, errors, health, metrics): never stored. */
  personal: "no-store",
} as const;

const STRICT_TRANSPORT_SECURITY = "max-age=31536000; includeSubDomains";

/** Every powerful feature denied to the page and anything it embeds, but fullscreen for the page itself. */
const DENIED_FEATURES =
  "accelerometer autoplay browsing-topics camera display-capture encrypted-media geolocation gyroscope " +
  "hid idle-detection magnetometer microphone midi payment publickey-credentials-get screen-wake-lock " +
  "serial usb xr-spatial-tracking";
const PERMISSIONS_POLICY = [
  ...DENIED_FEATURES.split(" ").map((feature) => `${feature}=()`),
  "fullscreen=(self)",
]
  .sort()
  .join(", ");

/** What every response carries unless it set the header itself. */
export function defaultHeaders(https: boolean): Record<string, string> {
  const headers: Record<string, string> = {
    "Content-Security-Policy": NON_DOCUMENT_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
    "Permissions-Policy": PERMISSIONS_POLICY,
    "Cache-Control": CACHE_CONTROL.personal,
  };
  // Over plain HTTP the header is ignored by browsers and would only lock out a
  // misconfigured deployment, so it is sent only when HTTPS is known.
  if (https) headers["Strict-Transport-Security"] = STRICT_TRANSPORT_SECURITY;
  return headers;
}

interface OutgoingHeaders {
  hasHeader(name: string): boolean;
  setHeader(name: string, value: string): unknown;
}

export function completeHeaders(response: OutgoingHeaders, https: boolean): void {
  for (const [name, value] of Object.entries(defaultHeaders(https))) {
    if (!response.hasHeader(name)) response.setHeader(name, value);
  }
}

/** A document's Content-Security-Policy: its own scripts by hash, and GA when configured. */
export function documentPolicy(scriptHashes: readonly string[]): string {
  return contentSecurityPolicy({ scriptHashes, gaMeasurementId: env.GA_MEASUREMENT_ID });
}
