import { describe, expect, it } from "vitest";

import {
  CACHE_CONTROL,
  completeHeaders,
  contentSecurityPolicy,
  defaultHeaders,
  NON_DOCUMENT_POLICY,
} from "~/lib/security/headers.server";

const directives = (policy: string) =>
  new Map(
    policy.split(";").map((part) => {
      const [name = "", ...values] = part.trim().split(/\s+/);
      return [name, values] as const;
    }),
  );

const A = `'sha256-${"A".repeat(43)}='`;
const B = `'sha256-${"B".repeat(43)}='`;

describe("content security policy", () => {
  it("allows scripts only by their hashes (strict-dynamic), never inline or eval", () => {
    const policy = directives(contentSecurityPolicy({ scriptHashes: [A] }));
    expect(policy.get("script-src")).toEqual([A, "'strict-dynamic'"]);
    expect(policy.get("default-src")).toEqual(["'self'"]);
    expect(policy.get("object-src")).toEqual(["'none'"]);
    expect(policy.get("base-uri")).toEqual(["'none'"]);
    expect(policy.get("form-action")).toEqual(["'self'"]);
    expect(policy.get("frame-ancestors")).toEqual(["'none'"]);
    expect(policy.get("img-src")).toEqual(["'self'", "data:"]);
    const text = contentSecurityPolicy({ scriptHashes: [A] });
    expect(text).not.toContain("unsafe-inline");
    expect(text).not.toContain("unsafe-eval");
    expect(text).not.toMatch(/google/);
  });

  it("lists every hash, with strict-dynamic; refuses an empty list and anything that is not a hash (a nonce)", () => {
    const policy = directives(contentSecurityPolicy({ scriptHashes: [A, B] }));
    expect(policy.get("script-src")).toEqual([A, B, "'strict-dynamic'"]);
    expect(() => contentSecurityPolicy({ scriptHashes: [] })).toThrow();
    expect(() => contentSecurityPolicy({ scriptHashes: ["'nonce-abc123'"] })).toThrow(/hash/);
    expect(() => contentSecurityPolicy({ scriptHashes: ["'unsafe-inline'"] })).toThrow(/hash/);
  });

  it("adds only Google's analytics hosts when a measurement id is set", () => {
    const plain = directives(contentSecurityPolicy({ scriptHashes: [A] }));
    const withGa = directives(contentSecurityPolicy({ scriptHashes: [A], gaMeasurementId: "G-ABC1234" }));
    for (const [name, values] of withGa) {
      const added = values.filter((value) => !(plain.get(name) ?? []).includes(value));
      for (const value of added)
        expect(value).toMatch(
          /^https:\/\/(\*\.|www\.)(google-analytics|analytics\.google|googletagmanager)\.com$/,
        );
    }
    expect(withGa.get("connect-src")).toContain("https://*.google-analytics.com");
    expect(withGa.get("img-src")).toContain("https://*.googletagmanager.com");
    expect(withGa.get("script-src")?.slice(0, 2)).toEqual([A, "'strict-dynamic'"]);
  });

  it("opens no websocket: development's live reload is same-origin (server/dev.ts)", () => {
    expect(contentSecurityPolicy({ scriptHashes: [A] })).not.toMatch(/wss?:/);
  });
});

describe("the headers every response gets", () => {
  it("sends HSTS only when HTTPS is known", () => {
    expect(defaultHeaders(false)["Strict-Transport-Security"]).toBeUndefined();
    expect(defaultHeaders(true)["Strict-Transport-Security"]).toBe("max-age=31536000; includeSubDomains");
  });

  it("denies everything to a response that is not a document, and is never stored unless it says so", () => {
    expect(defaultHeaders(false)["Content-Security-Policy"]).toBe(NON_DOCUMENT_POLICY);
    expect(NON_DOCUMENT_POLICY).toMatch(/^default-src 'none'/);
    expect(defaultHeaders(false)["X-Content-Type-Options"]).toBe("nosniff");
    expect(defaultHeaders(false)["Cache-Control"]).toBe(CACHE_CONTROL.personal);
  });

  it("completes a response without replacing what it set itself (a document's policy, a file's caching)", () => {
    const set = new Map<string, string>([
      ["content-security-policy", "default-src 'self'; script-src " + A],
      ["cache-control", CACHE_CONTROL.asset],
    ]);
    const response = {
      hasHeader: (name: string) => set.has(name.toLowerCase()),
      setHeader: (name: string, value: string) => set.set(name.toLowerCase(), value),
    };
    completeHeaders(response, true);
    expect(set.get("content-security-policy")).toBe("default-src 'self'; script-src " + A);
    expect(set.get("cache-control")).toBe(CACHE_CONTROL.asset);
    for (const [name, value] of Object.entries(defaultHeaders(true))) {
      if (name === "Content-Security-Policy" || name === "Cache-Control") continue;
      expect(set.get(name.toLowerCase()), name).toBe(value);
    }
  });
});
