import { randomBytes } from "node:crypto";

/** A fresh, unguessable nonce for one response's Content-Security-Policy. */
export function createNonce(): string {
  return randomBytes(18).toString("base64");
}

export interface SecurityHeaderOptions {
  nonce: string;
  /** The request arrived over HTTPS (directly, or per a trusted proxy), or FORCE_HTTPS is set. */
  https: boolean;
  gaMeasurementId?: string;
  isDevelopment?: boolean;
}

export function contentSecurityPolicy({ nonce, gaMeasurementId, isDevelopment }: SecurityHeaderOptions): string {
  const scriptSrc = [`'nonce-${nonce}'`, "'strict-dynamic'"];
  const connectSrc = ["'self'"];
  const imgSrc = ["'self'", "data:"];
  if (gaMeasurementId) {
    scriptSrc.push("https://www.googletagmanager.com");
    connectSrc.push("https://*.google-analytics.com", "https://*.analytics.google.com", "https://*.googletagmanager.com");
    imgSrc.push("https://*.google-analytics.com", "https://*.googletagmanager.com");
  }
  if (isDevelopment) {
    // Remix's live reload talks over a websocket to the dev server.
    connectSrc.push("ws://localhost:*", "ws://127.0.0.1:*");
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

export function securityHeaders(options: SecurityHeaderOptions): Record<string, string> {
  const headers: Record<string, string> = {
    "Content-Security-Policy": contentSecurityPolicy(options),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
    "Permissions-Policy":
      "accelerometer=(), camera=(), geolocation=(), gyroscope=(), magnetometer=(), microphone=(), payment=(), usb=(), interest-cohort=()",
  };
  if (options.https) {
    headers["Strict-Transport-Security"] = "max-age=31536000; includeSubDomains";
  }
  return headers;
}
