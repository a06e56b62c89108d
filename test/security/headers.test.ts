import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { type AppServer, startAppServer } from "../support/app-server";
import {
  hashesOfDocumentScripts,
  heldModuleSource,
  policyHashes,
  policyNonce,
  scriptsRefusedByPolicy,
  scriptTags,
  validContactForm,
} from "./html";

const BASE_HEADERS = {
  "x-content-type-options": "nosniff",
  "referrer-policy": "strict-origin-when-cross-origin",
  "x-frame-options": "DENY",
  "cross-origin-opener-policy": "same-origin",
  "cross-origin-resource-policy": "same-origin",
};

/** Holds for the cached home page and a document rendered for one request alike. */
async function expectSecureDocument(
  res: Response,
): Promise<{ nonce: string | undefined; html: string; policy: string }> {
  expect(res.headers.get("content-type")).toContain("text/html");
  for (const [name, value] of Object.entries(BASE_HEADERS)) expect(res.headers.get(name), name).toBe(value);
  expect(res.headers.get("permissions-policy")).toMatch(/camera=\(\)/);
  expect(res.headers.get("permissions-policy")).toMatch(/geolocation=\(\)/);
  expect(res.headers.get("content-security-policy-report-only")).toBeNull();
  const policy = res.headers.get("content-security-policy") ?? "";
  expect(policy).toBeTruthy();
  expect(policy).not.toContain("unsafe-inline");
  expect(policy).not.toContain("unsafe-eval");
  for (const directive of [
    "default-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "img-src 'self' data:",
  ]) {
    expect(policy).toContain(directive);
  }
  expect(policy).toMatch(/script-src (?:'sha256-[A-Za-z0-9+/]{43}=' )+'strict-dynamic'/);

  const html = await res.text();
  const executable = scriptTags(html).filter((script) => !script.type?.startsWith("application/"));
  // Remix's context script, its data scripts and the paint-first loader at least.
  expect(executable.length).toBeGreaterThanOrEqual(3);
  expect(scriptsRefusedByPolicy(html, policy)).toEqual([]);
  // No more than its own: a hash in the policy is a script the document runs.
  expect([...new Set(policyHashes(policy))].sort()).toEqual(hashesOfDocumentScripts(html));
  // The bootstrap waits in the data block until the first paint (decision 022).
  expect(heldModuleSource(html)).toMatch(/^;?\s*import /);
  // Inline event handlers would be blocked by the policy: there must be none.
  expect(html).not.toMatch(/\son[a-z]+="/i);
  return { nonce: policyNonce(policy), html, policy };
}

describe("security headers on every HTML response", () => {
  let server: AppServer;
  beforeAll(async () => {
    server = await startAppServer({ RATE_LIMIT_GLOBAL_PER_MINUTE: "1000" });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("GET / carries them, its scripts allowed by their hashes and no nonce to share", async () => {
    const first = await fetch(`${server.url}/`);
    expect(first.status).toBe(200);
    const a = await expectSecureDocument(first);
    expect(a.nonce).toBeUndefined();
    expect(a.html).not.toContain("nonce=");
    const b = await expectSecureDocument(await fetch(`${server.url}/?utm_source=newsletter`));
    expect(b.policy).toBe(a.policy);
    expect(first.headers.get("strict-transport-security")).toBeNull();
  });

  it("a document rendered for one request is allowed by the hashes of its own scripts, with no nonce", async () => {
    const policies = new Set<string>();
    for (let i = 0; i < 3; i++) {
      // A validation error is rendered for its request (a success is a redirect to a cached page).
      const invalid = validContactForm();
      invalid.set("email", `not-an-address-${i}`);
      const answer = await fetch(`${server.url}/?index`, { method: "POST", body: invalid });
      const rendered = [
        await expectSecureDocument(answer),
        await expectSecureDocument(await fetch(`${server.url}/missing-${i}`)),
      ];
      for (const { nonce, html, policy } of rendered) {
        expect(nonce).toBeUndefined();
        expect(html).not.toContain("nonce=");
        policies.add(policy);
      }
    }
    // Each carries what its request made (the visitor's values, the missing path): its own hashes.
    expect(policies.size).toBe(6);
  });

  it("a form POST's answer carries them (success: the redirect and its page; validation failure)", async () => {
    const ok = await fetch(`${server.url}/?index`, {
      method: "POST",
      body: validContactForm(),
      redirect: "manual",
    });
    expect(ok.status).toBe(303);
    for (const [name, value] of Object.entries(BASE_HEADERS)) expect(ok.headers.get(name), name).toBe(value);
    expect(ok.headers.get("content-security-policy")).toMatch(/^default-src 'none'/);
    const page = await fetch(new URL(ok.headers.get("location") ?? "", server.url));
    expect(page.status).toBe(200);
    await expectSecureDocument(page);

    const invalid = validContactForm();
    invalid.set("name", "  ");
    const bad = await fetch(`${server.url}/?index`, { method: "POST", body: invalid });
    expect(bad.status).toBe(400);
    await expectSecureDocument(bad);
  });

  it("the 404 carries them and is noindex", async () => {
    const res = await fetch(`${server.url}/no/such/page?x=<script>alert(1)</script>`);
    expect(res.status).toBe(404);
    const { html } = await expectSecureDocument(res);
    expect(html).toMatch(/<meta name="robots" content="noindex"\/>/);
    // The query is never reflected: only the path, as data.
    expect(html).not.toContain("alert(1)");
  });

  it("single-fetch data responses carry the base headers and a deny-all policy", async () => {
    const res = await fetch(`${server.url}/_root.data`);
    expect(res.status).toBe(200);
    for (const [name, value] of Object.entries(BASE_HEADERS)) expect(res.headers.get(name), name).toBe(value);
    expect(res.headers.get("content-security-policy")).toMatch(/^default-src 'none'/);
    await res.arrayBuffer();
  });

  it("ignores X-Forwarded-Proto when no proxy is trusted", async () => {
    const res = await fetch(`${server.url}/`, { headers: { "x-forwarded-proto": "https" } });
    expect(res.headers.get("strict-transport-security")).toBeNull();
    await res.arrayBuffer();
  });

  it("loads no analytics without GA_MEASUREMENT_ID", async () => {
    const res = await fetch(`${server.url}/`);
    expect(res.headers.get("content-security-policy")).not.toMatch(/google/);
    expect(await res.text()).not.toMatch(/googletagmanager|gtag\(/);
  });
});

describe("behind a trusted proxy, with analytics", () => {
  let server: AppServer;
  beforeAll(async () => {
    server = await startAppServer({
      TRUST_PROXY: "1",
      GA_MEASUREMENT_ID: "G-TEST12345",
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("sends HSTS (one year, subdomains) only when the proxy says the visitor used HTTPS", async () => {
    const https = await fetch(`${server.url}/`, { headers: { "x-forwarded-proto": "https" } });
    expect(https.headers.get("strict-transport-security")).toBe("max-age=31536000; includeSubDomains");
    await https.arrayBuffer();
    const http = await fetch(`${server.url}/`, { headers: { "x-forwarded-proto": "http" } });
    expect(http.headers.get("strict-transport-security")).toBeNull();
    await http.arrayBuffer();
    const none = await fetch(`${server.url}/nope`);
    expect(none.headers.get("strict-transport-security")).toBeNull();
    await none.arrayBuffer();
  });

  it("can load gtag (after consent, decision 047) from an allowed inline script and allows only Google's analytics hosts", async () => {
    const res = await fetch(`${server.url}/`, { headers: { "x-forwarded-proto": "https" } });
    const { html } = await expectSecureDocument(res);
    // Inserted by the allowed inline script ('strict-dynamic'), not parser-inserted.
    expect(scriptTags(html).some((script) => /\ssrc=/.test(script.attributes))).toBe(false);
    expect(html).toContain("https://www.googletagmanager.com/gtag/js?id=G-TEST12345");
    expect(html).toContain(`"measurementId":"G-TEST12345"`);
    const policy = res.headers.get("content-security-policy") ?? "";
    const hosts = policy.match(/https:\/\/[^\s;]+/g) ?? [];
    expect(hosts.length).toBeGreaterThan(0);
    for (const host of hosts)
      expect(host).toMatch(
        /^https:\/\/(\*\.|www\.)(google-analytics|analytics\.google|googletagmanager)\.com$/,
      );
  });
});

describe("FORCE_HTTPS", () => {
  let server: AppServer;
  beforeAll(async () => {
    server = await startAppServer({ FORCE_HTTPS: "true" });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("sends HSTS on every response, documents and data alike", async () => {
    for (const path of ["/", "/nope", "/_root.data"]) {
      const res = await fetch(`${server.url}${path}`);
      expect(res.headers.get("strict-transport-security"), path).toBe("max-age=31536000; includeSubDomains");
      await res.arrayBuffer();
    }
  });
});
