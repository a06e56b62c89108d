/* global document, window -- page.evaluate callbacks run in the browser */
// What `/` costs a first-time visitor: every request Chromium makes while loading the
// page (so chunks imported lazily at start are counted too), each file's bytes raw,
// gzipped and as served with brotli, which requests block rendering, and which go to
// another host than loopback.
import { gzipSync } from "node:zlib";

import { chromium } from "playwright-core";
import { request } from "undici";

import { CHROMIUM_FLAGS, chromiumPath, isLoopback, LOOPBACK_ONLY_FLAGS } from "../../scripts/chromium.mjs";

/** Body bytes exactly as they crossed the wire for one Accept-Encoding (undici never decodes them), and the headers. */
export async function fetchWire(url, acceptEncoding) {
  const { statusCode, headers, body } = await request(url, {
    headers: { "accept-encoding": acceptEncoding },
  });
  return { status: statusCode, headers, body: Buffer.from(await body.arrayBuffer()) };
}

function kindOf(url, contentType, resourceType) {
  if (resourceType === "document") return "html";
  if (/css/.test(contentType) || /\.css(\?|$)/.test(url)) return "css";
  if (/javascript/.test(contentType) || /\.m?js(\?|$)/.test(url)) return "js";
  return "other";
}

/** Sizes of one URL: raw, gzip at zlib's default level (what `compression` serves), and as served. */
async function measureFile(url) {
  const [identity, gzip, br] = [
    await fetchWire(url, "identity"),
    await fetchWire(url, "gzip"),
    await fetchWire(url, "br"),
  ];
  const encoding = (response) => response.headers["content-encoding"] ?? "identity";
  return {
    raw: identity.body.length,
    gzip: gzipSync(identity.body, { level: 6 }).length,
    gzipServed: gzip.body.length,
    gzipServedEncoding: encoding(gzip),
    brServed: br.body.length,
    brServedEncoding: encoding(br),
    contentType: identity.headers["content-type"] ?? "",
  };
}

async function waitForQuiet(page) {
  await page.waitForLoadState("networkidle").catch(() => {});
  await page.waitForTimeout(1500);
  await page.waitForLoadState("networkidle").catch(() => {});
}

/**
 * Loads `/` in a phone-sized Chromium and records every request until the network has been quiet
 * for a while, and which requests blocked rendering (Chromium's own judgement); then scrolls
 * through the page and types into the form, and records which requests come later.
 */
async function firstVisit(baseUrl) {
  const args = [...CHROMIUM_FLAGS, ...LOOPBACK_ONLY_FLAGS];
  const browser = await chromium.launch({ executablePath: chromiumPath(), args });
  try {
    const viewport = { width: 390, height: 844 };
    const page = await browser.newPage({ viewport, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
    const requests = new Map();
    const consoleErrors = [];
    let phase = "load";
    page.on("request", (req) => {
      if (!requests.has(req.url()))
        requests.set(req.url(), { url: req.url(), resourceType: req.resourceType(), phase });
    });
    page.on("console", (msg) => msg.type() === "error" && consoleErrors.push(msg.text()));
    page.on("pageerror", (error) => consoleErrors.push(String(error)));
    await page.goto(`${baseUrl}/`, { waitUntil: "load" });
    await waitForQuiet(page);
    const blocking = await page.evaluate(() =>
      performance
        .getEntriesByType("resource")
        .filter((entry) => entry.renderBlockingStatus === "blocking")
        .map((entry) => ({ url: entry.name, initiatorType: entry.initiatorType })),
    );
    phase = "after-interaction";
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    for (let y = 0; y <= height; y += 700) {
      await page.evaluate((top) => window.scrollTo({ top, behavior: "instant" }), y);
      await page.waitForTimeout(120);
    }
    const field = page.locator('#contact input[name="name"]').first();
    if (await field.count()) await field.pressSequentially("A");
    await waitForQuiet(page);
    return { requests: [...requests.values()], blocking, consoleErrors };
  } finally {
    await browser.close();
  }
}

/**
 * Everything the bytes section reports of `baseUrl`: each file loaded from this machine with its
 * sizes, the requests to other hosts, and the requests that blocked rendering, all but the first
 * stylesheet in `otherBlocking`.
 */
export async function measurePage(baseUrl) {
  const { requests, blocking, consoleErrors } = await firstVisit(baseUrl);
  const files = [];
  for (const req of requests.filter((req) => isLoopback(req.url) && /^https?:/.test(req.url))) {
    const size = await measureFile(req.url);
    files.push({ ...req, ...size, kind: kindOf(req.url, size.contentType, req.resourceType) });
  }
  const isStylesheet = (entry) => /\.css(\?|$)/.test(entry.url);
  const otherBlocking = [
    ...blocking.filter((entry) => !isStylesheet(entry)),
    ...blocking.filter(isStylesheet).slice(1),
  ];
  return {
    files,
    thirdParty: requests.filter((req) => !isLoopback(req.url)),
    blocking,
    otherBlocking,
    consoleErrors,
  };
}
