import { beforeAll, describe, expect, it } from "vitest";

import { useAppWithFunction } from "../support/app-server";
import { wire } from "../support/wire";
import { contactRequest } from "../support/contact-request";

/** How the production server lets browsers and a CDN cache, and how it compresses. */

let formSerial = 0;
/** A valid submission, a different request each call (an identical one is not sent again). */
const validForm = () =>
  new URLSearchParams(
    contactRequest({
      name: "Caching Test",
      email: "caching.test@example.com",
      message: `Please tell me more about automating our invoices (${++formSerial}).`,
    }),
  ).toString();
/** What the enhanced form adds: answer with data (for the toast), not with a redirect. */
const enhanced = (body: string) => `${body}&answer=data`;

const formHeaders = (origin: string) => ({
  "content-type": "application/x-www-form-urlencoded",
  origin,
});

const YEAR_SECONDS = 31_536_000;

function directives(cacheControl: string | string[] | undefined): Map<string, string | true> {
  const map = new Map<string, string | true>();
  for (const part of String(cacheControl ?? "").split(",")) {
    const [name, value] = part.trim().toLowerCase().split("=");
    if (name) map.set(name, value ?? true);
  }
  return map;
}

describe("caching and compression of the production server", () => {
  const app = useAppWithFunction({
    RATE_LIMIT_PER_CLIENT: "1000",
    // Greater than the per-client limit, or the server refuses to start.
    RATE_LIMIT_GLOBAL_PER_MINUTE: "2000",
  });
  let html: string;
  let assets: { scripts: string[]; stylesheet: string };

  beforeAll(async () => {
    html = (await wire(`${app.server.url}/`, "identity")).body.toString("utf8");
    const stylesheet = /<link[^>]+rel="stylesheet"[^>]+href="(\/build\/[^"]+\.css)"/.exec(html)?.[1];
    // The module preloads wait in the paint-first data block (decision 022) as "/build/….js".
    const scripts = [...html.matchAll(/"(\/build\/[^"]+\.js)"/g)].map((m) => m[1] as string);
    if (!stylesheet || scripts.length === 0)
      throw new Error("the home page links no /build/ stylesheet or script");
    assets = { scripts: [...new Set(scripts)], stylesheet };
  });

  it("serves every /build/ asset the page links as public and immutable for a year", async () => {
    for (const path of [assets.stylesheet, ...assets.scripts]) {
      const res = await wire(`${app.server.url}${path}`, "identity");
      expect(res.status, path).toBe(200);
      const cc = directives(res.headers["cache-control"]);
      expect(cc.get("public"), path).toBe(true);
      expect(cc.get("immutable"), path).toBe(true);
      expect(Number(cc.get("max-age")), path).toBeGreaterThanOrEqual(YEAR_SECONDS);
    }
  });

  it("lets a CDN keep the home page's HTML for five minutes and serve it stale while it revalidates", async () => {
    const res = await wire(`${app.server.url}/`, "identity");
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toContain("text/html");
    expect(res.headers["cache-control"]).toBe(
      "public, max-age=0, s-maxage=300, stale-while-revalidate=86400, no-transform",
    );
  });

  it("never stores the answer to the JavaScript (single fetch) submission", async () => {
    const res = await wire(`${app.server.url}/_root.data?index`, "identity", {
      method: "POST",
      headers: formHeaders(app.server.url),
      body: enhanced(validForm()),
    });
    expect(res.status).toBe(200);
    expect(directives(res.headers["cache-control"]).get("no-store")).toBe(true);
  });

  it("sends HTML, CSS and JS brotli-compressed when the client offers br", async () => {
    const bigScript = await largestScript();
    for (const path of ["/", assets.stylesheet, bigScript]) {
      const res = await wire(`${app.server.url}${path}`, "br, gzip, deflate");
      expect(res.headers["content-encoding"], path).toBe("br");
      expect(String(res.headers["vary"]).toLowerCase(), path).toContain("accept-encoding");
    }
  });

  it("falls back to gzip when the client offers only gzip", async () => {
    const bigScript = await largestScript();
    for (const path of ["/", assets.stylesheet, bigScript]) {
      const res = await wire(`${app.server.url}${path}`, "gzip");
      expect(res.headers["content-encoding"], path).toBe("gzip");
    }
  });

  it("compresses the build's files once (brotli 11, gzip 9, the build's own .br and .gz): each decodes to the plain bytes, each encoding its own ETag and 304, HEAD without a body", async () => {
    const { readFileSync } = await import("node:fs");
    const { brotliDecompressSync, gunzipSync } = await import("node:zlib");
    const { browserBuildDir } = await import("../support/build-output");
    for (const path of [assets.stylesheet, await largestScript()]) {
      const onDisk = readFileSync(`${browserBuildDir}/${path.replace(/^\/build\//, "")}`);
      const br = await wire(`${app.server.url}${path}`, "br");
      const gzip = await wire(`${app.server.url}${path}`, "gzip");
      const plain = await wire(`${app.server.url}${path}`, "identity");
      expect(brotliDecompressSync(br.body).equals(onDisk), path).toBe(true);
      expect(gunzipSync(gzip.body).equals(onDisk), path).toBe(true);
      expect(plain.body.equals(onDisk), path).toBe(true);
      // Quality 11, not the middleware's 4: the build's own .br, byte for byte.
      expect(
        br.body.equals(readFileSync(`${browserBuildDir}/${path.replace(/^\/build\//, "")}.br`)),
        path,
      ).toBe(true);
      const etags = [br, gzip, plain].map((res) => String(res.headers["etag"]));
      expect(new Set(etags).size, path).toBe(3);
      const again = await wire(`${app.server.url}${path}`, "br", { headers: { "if-none-match": etags[0]! } });
      expect(again.status, path).toBe(304);
      expect(again.body.length, path).toBe(0);
      const head = await wire(`${app.server.url}${path}`, "br", { method: "HEAD" });
      expect(head.status, path).toBe(200);
      expect(head.body.length, path).toBe(0);
      expect(head.headers["content-length"], path).toBe(String(br.body.length));
    }
  });

  it("serves public/'s files as they are, an hour in caches, and a file it does not hold from Express (404)", async () => {
    const icon = await wire(`${app.server.url}/og-image.png`, "br, gzip");
    expect(icon.status).toBe(200);
    expect(icon.headers["content-type"]).toBe("image/png");
    expect(icon.headers["content-encoding"]).toBeUndefined();
    expect(directives(icon.headers["cache-control"]).get("max-age")).toBe("3600");
    const missing = await wire(`${app.server.url}/build/no-such-chunk.js`, "br");
    expect(missing.status).toBe(404);
  });

  /** The framework chunk: the largest script the page loads (compression skips files under 1 KB). */
  async function largestScript(): Promise<string> {
    let largest = { path: "", size: -1 };
    for (const path of assets.scripts) {
      const size = (await wire(`${app.server.url}${path}`, "identity")).body.length;
      if (size > largest.size) largest = { path, size };
    }
    return largest.path;
  }
});
