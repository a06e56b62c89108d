/* global document, window -- page.evaluate callbacks run in the browser */
// What `/` costs a first-time visitor: every request Chromium makes while loading the
// page (so chunks imported lazily at start are counted too), each file's bytes raw,
// gzipped and as served with brotli, which requests block rendering, and which go to
// another host than loopback.
import { request } from "node:http";
import { gzipSync } from "node:zlib";

import { chromium } from "playwright-core";

import { CHROMIUM_FLAGS, chromiumPath, isLoopback, LOOPBACK_ONLY_FLAGS } from "../../scripts/chromium.mjs";

const chromeFlags = [...CHROMIUM_FLAGS, ...LOOPBACK_ONLY_FLAGS];

/** Body bytes exactly as they crossed the wire for one Accept-Encoding, plus the headers. */
export function fetchWire(url, acceptEncoding, { method = "GET", headers = {}, body } = {}) {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method, headers: { "accept-encoding": acceptEncoding, ...headers } },
      (res) => {
        const chunks = [];
        res.on("data", (chunk) => chunks.push(chunk));
        res.on("end", () =>
          resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

function kindOf(url, contentType, resourceType) {
  if (resourceType === "document") return "html";
  if (/css/.test(contentType) || /\.css(\?|$)/.test(url)) return "css";
  if (/javascript/.test(contentType) || /\.m?js(\?|$)/.test(url)) return "js";
  return "other";
}

/** Sizes of one URL: raw, gzip at zlib's default level (what `compression` serves), and as served. */
export async function measureFile(url) {
  const identity = await fetchWire(url, "identity");
  const gzipServed = await fetchWire(url, "gzip");
  const brServed = await fetchWire(url, "br");
  return {
    raw: identity.body.length,
    gzip: gzipSync(identity.body, { level: 6 }).length,
    gzipServed: gzipServed.body.length,
    gzipServedEncoding: gzipServed.headers["content-encoding"] ?? "identity",
    brServed: brServed.body.length,
    brServedEncoding: brServed.headers["content-encoding"] ?? "identity",
    contentType: identity.headers["content-type"] ?? "",
    cacheControl: identity.headers["cache-control"] ?? "",
  };
}

async function waitForQuiet(page, quietMs) {
  await page.waitForLoadState("networkidle").catch(() => {});
  await page.waitForTimeout(quietMs);
  await page.waitForLoadState("networkidle").catch(() => {});
}

/**
 * Loads `/` in a phone-sized Chromium window and records every request until the
 * network has been quiet for a while; then scrolls through the page and interacts
 * with the form to see which chunks load later (observations, not budgets).
 */
export async function firstVisit(baseUrl) {
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: chromeFlags });
  try {
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      deviceScaleFactor: 2,
      isMobile: true,
      hasTouch: true,
    });
    const page = await context.newPage();
    const requests = new Map();
    const consoleErrors = [];
    let phase = "load";
    page.on("request", (req) => {
      if (!requests.has(req.url()))
        requests.set(req.url(), { url: req.url(), resourceType: req.resourceType(), phase });
    });
    page.on("console", (msg) => {
      if (msg.type() === "error") consoleErrors.push(msg.text());
    });
    page.on("pageerror", (err) => consoleErrors.push(String(err)));

    const response = await page.goto(`${baseUrl}/`, { waitUntil: "load" });
    await waitForQuiet(page, 1500);

    const resourceTiming = await page.evaluate(() =>
      performance.getEntriesByType("resource").map((entry) => ({
        url: entry.name,
        initiatorType: entry.initiatorType,
        renderBlockingStatus: entry.renderBlockingStatus ?? "unknown",
      })),
    );

    // Later: scroll through every section, then touch the form, as a visitor would.
    phase = "after-interaction";
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    for (let y = 0; y <= height; y += 700) {
      await page.evaluate((top) => window.scrollTo({ top, behavior: "instant" }), y);
      await page.waitForTimeout(120);
    }
    const field = page.locator('#contact input[name="name"]');
    if (await field.count()) {
      await field.first().focus();
      await field
        .first()
        .type("A", { delay: 10 })
        .catch(() => {});
    }
    await waitForQuiet(page, 1500);

    return {
      status: response?.status() ?? 0,
      requests: [...requests.values()],
      resourceTiming,
      consoleErrors,
    };
  } finally {
    await browser.close();
  }
}

/** Everything the bytes section reports, measured against `baseUrl`. */
export async function measurePage(baseUrl) {
  const visit = await firstVisit(baseUrl);
  const files = [];
  for (const req of visit.requests) {
    if (!isLoopback(req.url) || !/^https?:/.test(req.url)) continue;
    const size = await measureFile(req.url);
    files.push({ ...req, ...size, kind: kindOf(req.url, size.contentType, req.resourceType) });
  }
  const thirdParty = visit.requests.filter((req) => !isLoopback(req.url));

  const blocking = visit.resourceTiming.filter((entry) => entry.renderBlockingStatus === "blocking");
  const blockingStylesheets = blocking.filter((entry) => /\.css(\?|$)/.test(entry.url));
  const otherBlocking = [
    ...blocking.filter((entry) => !/\.css(\?|$)/.test(entry.url)),
    ...blockingStylesheets.slice(1),
  ];

  return {
    status: visit.status,
    files,
    thirdParty,
    blocking,
    otherBlocking,
    consoleErrors: visit.consoleErrors,
  };
}
