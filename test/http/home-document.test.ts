import { brotliDecompressSync, gunzipSync } from "node:zlib";

import { beforeAll, describe, expect, it } from "vitest";

import { contactNotices } from "~/content/contact-form";

import { policyHashes, policyNonce, scriptsRefusedByPolicy } from "../security/html";
import { useAppWithFunction } from "../support/app-server";
import { wire, type WireResponse } from "../support/wire";

/**
 * The home document is made once by `npm run build`, compressed once, and served as a file before
 * Express and Remix see the request (docs/decisions/041-home-page-as-a-file.md). It must never serve
 * one visitor's answer to another, or bytes whose scripts the policy does not allow.
 */

const BR = "br, gzip";

// Words that appear nowhere on the page, so finding one in `/` means a visitor's request leaked.
const distinctive = {
  name: "Zephyrine Quillfeather",
  email: "zephyrine.quill@example.org",
  phone: "+44 20 7946 0958",
  company: "Obsidian Lantern Works",
  website: "https://obsidian-lantern.example.org",
  companySize: "11-50",
  industry: "Manufacturing",
  message: "Our mauve-walrus-8841 ledger needs automating before the spring audit.",
};
const LEAK_MARKERS = [
  "Zephyrine",
  "Quillfeather",
  "zephyrine.quill",
  "Obsidian Lantern",
  "mauve-walrus-8841",
];
const NOTICE_TITLES = [
  contactNotices.success.title,
  contactNotices.sendFailed.title,
  contactNotices.tooManyRequests.title,
  contactNotices.validationTitle,
];

const header = (res: WireResponse, name: string) => {
  const value = res.headers[name];
  return Array.isArray(value) ? value.join(", ") : value;
};

function decoded(res: WireResponse): string {
  const encoding = header(res, "content-encoding");
  if (encoding === "br") return brotliDecompressSync(res.body).toString("utf8");
  if (encoding === "gzip") return gunzipSync(res.body).toString("utf8");
  return res.body.toString("utf8");
}

describe("the home document, made at build and served as a file", () => {
  const app = useAppWithFunction({
    TRUST_PROXY: "1",
    RATE_LIMIT_PER_CLIENT: "2",
    RATE_LIMIT_GLOBAL_PER_MINUTE: "1000",
  });
  let first: WireResponse;

  const postForm = (fields: Record<string, string>, client: string) =>
    wire(`${app.server.url}/?index`, "identity", {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        origin: app.server.url,
        "x-forwarded-for": client,
      },
      body: new URLSearchParams(fields).toString(),
    });

  beforeAll(async () => {
    first = await wire(`${app.server.url}/`, BR);
  });

  it("is read before the server listens: no visitor ever waits for a render", () => {
    const log = app.server.output();
    const read = log.indexOf('"event":"home_document"');
    expect(read, log).toBeGreaterThan(-1);
    expect(read).toBeLessThan(log.indexOf('"listening":'));
    const line = JSON.parse(log.slice(log.lastIndexOf("{", read), log.indexOf("\n", read))) as {
      source: string;
      bytes: { html: number; br: number; gzip: number };
    };
    expect(line.source).toBe("build");
    expect(line.bytes.br).toBeLessThan(line.bytes.gzip);
    expect(line.bytes.gzip).toBeLessThan(line.bytes.html);
    expect(first.body.length).toBe(line.bytes.br);
  });

  it("answers two GETs with byte-identical bodies, a strong ETag and an exact Content-Length", async () => {
    const second = await wire(`${app.server.url}/`, BR);
    expect(first.status).toBe(200);
    expect(header(first, "content-encoding")).toBe("br");
    expect(second.body.equals(first.body)).toBe(true);
    expect(header(first, "etag")).toMatch(/^"[A-Za-z0-9_-]+-br"$/);
    expect(header(second, "etag")).toBe(header(first, "etag"));
    expect(Number(header(first, "content-length"))).toBe(first.body.length);
    expect(header(first, "vary")?.toLowerCase()).toContain("accept-encoding");
  });

  it("sends each encoding as its own representation of the same document", async () => {
    const gzip = await wire(`${app.server.url}/`, "gzip");
    const plain = await wire(`${app.server.url}/`, "identity");
    expect(header(gzip, "content-encoding")).toBe("gzip");
    expect(header(plain, "content-encoding")).toBeUndefined();
    const etags = new Set([first, gzip, plain].map((res) => header(res, "etag")));
    expect(etags.size).toBe(3);
    expect(decoded(gzip)).toBe(decoded(first));
    expect(decoded(plain)).toBe(decoded(first));
    expect(Number(header(plain, "content-length"))).toBe(plain.body.length);
  });

  it("keeps the br body within 12.5 KB", () => {
    expect(first.body.length).toBeLessThanOrEqual(12_500);
  });

  it("answers If-None-Match with 304 and no body; another tag gets the document", async () => {
    const etag = header(first, "etag")!;
    const fresh = await wire(`${app.server.url}/`, BR, { headers: { "if-none-match": etag } });
    expect(fresh.status).toBe(304);
    expect(fresh.body.length).toBe(0);
    expect(header(fresh, "etag")).toBe(etag);
    expect(header(fresh, "cache-control")).toBe(header(first, "cache-control"));
    const weak = await wire(`${app.server.url}/`, BR, { headers: { "if-none-match": `W/${etag}` } });
    expect(weak.status).toBe(304);
    const stale = await wire(`${app.server.url}/`, BR, { headers: { "if-none-match": '"something-else"' } });
    expect(stale.status).toBe(200);
    expect(stale.body.equals(first.body)).toBe(true);
  });

  it("answers HEAD with the GET's headers and no body", async () => {
    const head = await wire(`${app.server.url}/`, BR, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    for (const name of [
      "etag",
      "content-length",
      "content-encoding",
      "content-security-policy",
      "cache-control",
    ])
      expect(header(head, name), name).toBe(header(first, name));
  });

  it("serves campaign and ad links the same bytes", async () => {
    for (const query of [
      "?utm_source=newsletter&utm_medium=email&utm_campaign=spring",
      "?gclid=EAIaIQobChMI",
      "?fbclid=x&ref=<script>",
    ]) {
      const res = await wire(`${app.server.url}/${query}`, BR);
      expect(res.status, query).toBe(200);
      expect(res.body.equals(first.body), query).toBe(true);
      expect(header(res, "etag"), query).toBe(header(first, "etag"));
    }
  });

  it("never takes in a visitor's values, notice or refusal, whatever the answer was", async () => {
    const answers: { kind: string; res: WireResponse }[] = [];
    // Each a different request: an identical one delivered earlier is answered without a render.
    const variant = (n: number) => ({ ...distinctive, message: `${distinctive.message} (${n})` });
    app.fake.setMode({ kind: "success" });
    const sent = await postForm(variant(1), "198.51.100.10");
    answers.push({
      kind: "invalid",
      res: await postForm({ ...variant(2), email: "not-an-email" }, "198.51.100.11"),
    });
    app.fake.setMode({ kind: "status", status: 500 });
    answers.push({ kind: "function error", res: await postForm(variant(3), "198.51.100.12") });
    app.fake.setMode({ kind: "success" });
    await postForm(variant(4), "198.51.100.13");
    await postForm(variant(5), "198.51.100.13");
    answers.push({ kind: "rate-limited", res: await postForm(variant(6), "198.51.100.13") });
    expect([`sent ${sent.status}`, ...answers.map(({ kind, res }) => `${kind} ${res.status}`)]).toEqual([
      "sent 303",
      "invalid 400",
      "function error 502",
      "rate-limited 429",
    ]);
    expect(sent.body.length).toBe(0);
    expect(header(sent, "location")).toBe("/?contact=sent#contact-form");

    for (const { kind, res } of answers) {
      // Each answer is its own render, with the hashes of its own scripts, never the page's file.
      const html = decoded(res);
      const policy = header(res, "content-security-policy") ?? "";
      expect(header(res, "etag"), kind).toBeUndefined();
      expect(html, kind).not.toBe(decoded(first));
      expect(policyNonce(policy), kind).toBeUndefined();
      expect(policyHashes(policy), kind).not.toEqual(policyHashes(header(first, "content-security-policy")!));
      expect(scriptsRefusedByPolicy(html, header(res, "content-security-policy")!), kind).toEqual([]);
    }
    // The answers did carry the visitor's values: the checks below would see a leak.
    expect(decoded(answers[1]!.res)).toContain("Obsidian Lantern");

    for (const query of ["", "?index", "?utm_source=x"]) {
      const after = await wire(`${app.server.url}/${query}`, BR);
      expect(after.body.equals(first.body), query).toBe(true);
      const html = decoded(after);
      for (const marker of [...LEAK_MARKERS, ...NOTICE_TITLES])
        expect(html, `${query} ${marker}`).not.toContain(marker);
    }
    // The page after a sent message: the success notice only, the same bytes for everyone.
    const sentPage = await wire(`${app.server.url}/?contact=sent`, BR);
    const again = await wire(`${app.server.url}/?contact=sent&utm_medium=email`, BR);
    expect(sentPage.status).toBe(200);
    expect(again.body.equals(sentPage.body)).toBe(true);
    expect(sentPage.body.equals(first.body)).toBe(false);
    expect(header(sentPage, "etag")).toMatch(/^"[\w-]+-br"$/);
    expect(header(sentPage, "cache-control")).toBe(header(first, "cache-control"));
    expect(policyNonce(header(sentPage, "content-security-policy")!)).toBeUndefined();
    const sentHtml = decoded(sentPage);
    expect(sentHtml).toContain(contactNotices.success.title);
    for (const marker of [...LEAK_MARKERS, ...NOTICE_TITLES.slice(1)])
      expect(sentHtml, marker).not.toContain(marker);
    expect(scriptsRefusedByPolicy(sentHtml, header(sentPage, "content-security-policy")!)).toEqual([]);
  });
});
