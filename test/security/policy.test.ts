import { describe, expect, it } from "vitest";

import {
  contentSecurityPolicy,
  createNonce,
  nonDocumentSecurityHeaders,
  securityHeaders,
} from "~/lib/security/headers.server";

const directives = (policy: string) =>
  new Map(
    policy.split(";").map((part) => {
      const [name = "", ...values] = part.trim().split(/\s+/);
      return [name, values] as const;
    }),
  );

describe("content security policy", () => {
  it("allows scripts only by nonce (strict-dynamic), never inline or eval", () => {
    const policy = directives(contentSecurityPolicy({ scriptSources: ["'nonce-abc123'"], https: false }));
    expect(policy.get("script-src")).toEqual(["'nonce-abc123'", "'strict-dynamic'"]);
    expect(policy.get("default-src")).toEqual(["'self'"]);
    expect(policy.get("object-src")).toEqual(["'none'"]);
    expect(policy.get("base-uri")).toEqual(["'none'"]);
    expect(policy.get("form-action")).toEqual(["'self'"]);
    expect(policy.get("frame-ancestors")).toEqual(["'none'"]);
    expect(policy.get("img-src")).toEqual(["'self'", "data:"]);
    const text = contentSecurityPolicy({ scriptSources: ["'nonce-abc123'"], https: false });
    expect(text).not.toContain("unsafe-inline");
    expect(text).not.toContain("unsafe-eval");
    expect(text).not.toMatch(/google/);
  });

  it("allows the cached page's scripts by their hashes, with strict-dynamic, and refuses an empty list", () => {
    const hashes = ["'sha256-AAAA'", "'sha256-BBBB'"];
    const policy = directives(contentSecurityPolicy({ scriptSources: hashes, https: false }));
    expect(policy.get("script-src")).toEqual([...hashes, "'strict-dynamic'"]);
    expect(() => contentSecurityPolicy({ scriptSources: [], https: false })).toThrow();
  });

  it("adds only Google's analytics hosts when a measurement id is set", () => {
    const plain = directives(contentSecurityPolicy({ scriptSources: ["'nonce-n'"], https: false }));
    const withGa = directives(
      contentSecurityPolicy({ scriptSources: ["'nonce-n'"], https: false, gaMeasurementId: "G-ABC1234" }),
    );
    for (const [name, values] of withGa) {
      const added = values.filter((value) => !(plain.get(name) ?? []).includes(value));
      for (const value of added)
        expect(value).toMatch(
          /^https:\/\/(\*\.|www\.)(google-analytics|analytics\.google|googletagmanager)\.com$/,
        );
    }
    expect(withGa.get("connect-src")).toContain("https://*.google-analytics.com");
    expect(withGa.get("img-src")).toContain("https://*.googletagmanager.com");
    expect(withGa.get("script-src")?.slice(0, 2)).toEqual(["'nonce-n'", "'strict-dynamic'"]);
  });

  it("opens no websocket: development's live reload is same-origin (server/dev.ts)", () => {
    expect(contentSecurityPolicy({ scriptSources: ["'nonce-n'"], https: false })).not.toMatch(/wss?:/);
  });

  it("makes a different unguessable nonce every time", () => {
    const nonces = new Set(Array.from({ length: 200 }, createNonce));
    expect(nonces.size).toBe(200);
    for (const nonce of nonces) expect(nonce).toMatch(/^[A-Za-z0-9+/]{24}$/);
  });
});

describe("security headers", () => {
  it("sends HSTS only when HTTPS is known", () => {
    expect(
      securityHeaders({ scriptSources: ["'nonce-n'"], https: false })["Strict-Transport-Security"],
    ).toBeUndefined();
    expect(securityHeaders({ scriptSources: ["'nonce-n'"], https: true })["Strict-Transport-Security"]).toBe(
      "max-age=31536000; includeSubDomains",
    );
    expect(nonDocumentSecurityHeaders(true)["Strict-Transport-Security"]).toBe(
      "max-age=31536000; includeSubDomains",
    );
    expect(nonDocumentSecurityHeaders(false)["Strict-Transport-Security"]).toBeUndefined();
  });

  it("denies everything in non-document responses", () => {
    expect(nonDocumentSecurityHeaders(false)["Content-Security-Policy"]).toMatch(/^default-src 'none'/);
    expect(nonDocumentSecurityHeaders(false)["X-Content-Type-Options"]).toBe("nosniff");
  });
});
