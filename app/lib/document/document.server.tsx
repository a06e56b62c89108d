import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { PassThrough } from "node:stream";
import { promisify } from "node:util";
import { brotliCompress, constants as zlib, gzip } from "node:zlib";

import type { AppLoadContext, EntryContext } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { renderToPipeableStream } from "react-dom/server";

import { contactSentSearch, isContactSentUrl } from "~/lib/contact/answer";
import { env } from "~/lib/env.server";
import { publish } from "~/lib/events.server";
import { documentPolicy } from "~/lib/security/headers.server";

import { chooseEncoding, type Encoding, matchesIfNoneMatch } from "./http.server";
import {
  type HeldScripts,
  holdScriptsUntilPaint,
  moveTrailingMarkupIntoBody,
  scriptSources,
} from "./markup.server";

/**
 * The one home of every HTML document the server sends (docs/architecture.md, decision 030).
 * Each document takes the same four steps, whoever asked for it:
 *
 * 1. render: React renders the whole document to a string. The static sections inside it are
 *    HTML rendered once per process and never hydrated (decision 021).
 * 2. finish: the markup becomes a valid document and the scripts wait for the first paint
 *    (decision 022; `markup.server.ts`, `paint-first.ts`).
 * 3. policy: the Content-Security-Policy lists the hash of every script this document runs
 *    (decision 011): no nonce, so the same bytes are valid for every visitor and any cache.
 * 4. compress: brotli and gzip, once per process for the home document; the server's compression
 *    middleware does it for the others.
 *
 * The home document (GET and HEAD of `/`, whatever the query string) is the same for every
 * visitor, and so is its one variant, `/?contact=sent` (where a successful no-JavaScript
 * submission is redirected: the page with the success notice, decision 026). Each is rendered
 * once per process, on the first request with exactly its query (the server's warm-up, at start),
 * and served from memory with an ETag. Documents that carry what one request made (a form POST's
 * answer with the visitor's values and notice, the 404, error pages) take the same steps for that
 * request and never reach the cache.
 */

const RENDER_DEADLINE_MS = 5_000;

// The document's content is fixed at build time; only `npm run dev` wants every edit on reload.
const CACHE_HOME_DOCUMENT = env.NODE_ENV !== "development";

// ---- 1. render -------------------------------------------------------------------------------

interface Rendered {
  html: string;
  status: number;
}

/** The whole document, once every part is ready (nothing on this site streams in later). */
function render(request: Request, status: number, remixContext: EntryContext): Promise<Rendered> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const sink = new PassThrough();
    sink.on("data", (chunk: Buffer) => chunks.push(chunk));
    sink.on("end", () => resolve({ html: Buffer.concat(chunks).toString("utf8"), status }));
    sink.on("error", reject);
    const { pipe, abort } = renderToPipeableStream(
      <RemixServer context={remixContext} url={request.url} abortDelay={RENDER_DEADLINE_MS} />,
      {
        onAllReady() {
          clearTimeout(deadline);
          pipe(sink);
        },
        onShellError(error: unknown) {
          clearTimeout(deadline);
          reject(error);
        },
        onError(error: unknown) {
          // The error boundary renders what the visitor sees; the log keeps the cause.
          status = 500;
          console.error(error);
        },
      },
    );
    // Gives up on anything still pending (the error boundary then takes over).
    const deadline = setTimeout(abort, RENDER_DEADLINE_MS + 1_000);
    deadline.unref();
  });
}

// ---- 2. finish -------------------------------------------------------------------------------

/**
 * The paint-first loader, compiled by the build next to the server build (scripts/bundle.mjs).
 * Read once at start: a build without it cannot serve a document, so it fails here, loudly.
 */
const paintFirstLoader = readFileSync(new URL("./paint-first.js", import.meta.url), "utf8").trim();

type Finished = HeldScripts;

function finish(html: string): Finished {
  return holdScriptsUntilPaint(moveTrailingMarkupIntoBody(html), paintFirstLoader);
}

// ---- 3. policy -------------------------------------------------------------------------------

function reportRefused(request: Request, refused: number): void {
  if (refused > 0)
    console.error(
      JSON.stringify({
        event: "document_script_refused",
        path: new URL(request.url).pathname,
        scripts: refused,
      }),
    );
}

// ---- 4. compress -----------------------------------------------------------------------------

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

async function compress(html: string): Promise<Record<Encoding, Buffer>> {
  const identity = Buffer.from(html, "utf8");
  const [br, gz] = await Promise.all([
    brotli(identity, {
      params: {
        [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY,
        [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT,
        [zlib.BROTLI_PARAM_SIZE_HINT]: identity.length,
      },
    }),
    gzipped(identity, { level: zlib.Z_BEST_COMPRESSION }),
  ]);
  return { br, gzip: gz, identity };
}

// ---- the home document: once per process --------------------------------------------------

interface HomeDocument {
  scriptHashes: string[];
  /** Opaque part of the entity tags; each encoding is its own representation. */
  tag: string;
  bodies: Record<Encoding, Buffer>;
}

/** The pages served from memory, by the query that builds them: the page, and the page after a sent message. */
const cachedPages = { home: "", "contact-sent": contactSentSearch } as const;
type CachedPage = keyof typeof cachedPages;

const cache = new Map<CachedPage, Promise<HomeDocument>>();

export type HomeDocumentReadiness = { ready: true } | { ready: false; reason: string };

/**
 * Whether `/` can be served as visitors must get it: what /healthz tells a load balancer. Until
 * the home document exists (warming at start, or after a failed render) the instance is not ready.
 */
let readiness: HomeDocumentReadiness = CACHE_HOME_DOCUMENT
  ? { ready: false, reason: "the home page is being prepared" }
  : { ready: true };
const NOT_RENDERED = "the home page could not be rendered";

export function homeDocumentReadiness(): HomeDocumentReadiness {
  return readiness;
}

async function buildHomeDocument(page: CachedPage, rendered: Rendered): Promise<HomeDocument> {
  if (rendered.status !== 200) throw new Error(`The home document rendered with status ${rendered.status}.`);
  const finished = finish(rendered.html);
  const sources = scriptSources(finished);
  // Served to everyone from memory: a page with a script its policy refuses is never cached.
  if (sources.refused > 0)
    throw new Error(`The home document has ${sources.refused} inline script(s) inside the page's markup.`);
  const bodies = await compress(finished.html);
  const document = {
    scriptHashes: sources.hashes,
    tag: createHash("sha256").update(bodies.identity).digest("base64url").slice(0, 32),
    bodies,
  };
  // Ops see once per process what every visitor of `/` will be sent.
  console.log(
    JSON.stringify({
      event: "home_document",
      page,
      bytes: { html: bodies.identity.length, br: bodies.br.length, gzip: bodies.gzip.length },
      scriptHashes: document.scriptHashes.length,
    }),
  );
  return document;
}

/**
 * Which cached page a request gets: GET and HEAD of `/` that the router answered with the page
 * itself (no action ran, nothing failed). Of the query string only `contact=sent` is looked at:
 * campaign and ad parameters do not change the page.
 */
function cachedPageFor(request: Request, status: number, remixContext: EntryContext): CachedPage | null {
  const { staticHandlerContext: context } = remixContext;
  const url = new URL(request.url);
  const isPage =
    CACHE_HOME_DOCUMENT &&
    (request.method === "GET" || request.method === "HEAD") &&
    url.pathname === "/" &&
    status === 200 &&
    context.actionData == null &&
    context.errors == null;
  if (!isPage) return null;
  return isContactSentUrl(url) ? "contact-sent" : "home";
}

/**
 * The cached document, rendering it on first need. Only a request with exactly the page's own
 * query (the warm-up's, in practice) may render it, so no other query string ever shapes what
 * everyone is served. Null when it is not available: the caller renders for this request instead.
 */
async function homeDocument(
  request: Request,
  remixContext: EntryContext,
  page: CachedPage,
): Promise<HomeDocument | null> {
  let document = cache.get(page);
  if (!document) {
    if (new URL(request.url).search !== cachedPages[page]) return null;
    const building = render(request, 200, remixContext).then((rendered) => buildHomeDocument(page, rendered));
    document = building;
    cache.set(page, building);
    building.then(
      () => {
        // Readiness is about `/` itself: the success page, if it failed, is rendered per request.
        if (page === "home") readiness = { ready: true };
      },
      (error: unknown) => {
        // The next request for it tries again; visitors meanwhile get a per-request render.
        if (cache.get(page) === building) cache.delete(page);
        if (page === "home") readiness = { ready: false, reason: NOT_RENDERED };
        console.error(JSON.stringify({ event: "home_document_failed", page, message: String(error) }));
      },
    );
  }
  return document.catch(() => null);
}

/**
 * A request that should have built `/` (GET with no query: the warm-up's) answered with an error
 * instead, before any home document existed: the instance cannot serve its page.
 */
function homeCouldNotBeBuilt(request: Request, status: number): boolean {
  const url = new URL(request.url);
  return (
    CACHE_HOME_DOCUMENT &&
    request.method === "GET" &&
    url.pathname === "/" &&
    url.search === "" &&
    status !== 200 &&
    !cache.has("home")
  );
}

function homeResponse(request: Request, responseHeaders: Headers, document: HomeDocument): Response {
  const encoding = chooseEncoding(request.headers.get("accept-encoding"));
  const body = document.bodies[encoding];
  const etag = `"${document.tag}${encoding === "identity" ? "" : `-${encoding}`}"`;
  const headers = new Headers(responseHeaders);
  headers.set("Content-Security-Policy", documentPolicy(document.scriptHashes));
  headers.set("Content-Type", "text/html; charset=utf-8");
  // A proxy or CDN that rewrote the bytes (minified inline scripts, injected a snippet) would
  // break the script hashes the policy lists: the page would lose its JavaScript.
  headers.set("Cache-Control", withNoTransform(headers.get("Cache-Control")));
  headers.set("ETag", etag);
  headers.append("Vary", "Accept-Encoding");
  if (matchesIfNoneMatch(request.headers.get("if-none-match"), etag)) {
    return new Response(null, { status: 304, headers });
  }
  if (encoding !== "identity") headers.set("Content-Encoding", encoding);
  headers.set("Content-Length", String(body.length));
  return new Response(body as Uint8Array<ArrayBuffer>, { status: 200, headers });
}

function withNoTransform(cacheControl: string | null): string {
  if (!cacheControl) return "no-transform";
  return /\bno-transform\b/i.test(cacheControl) ? cacheControl : `${cacheControl}, no-transform`;
}

// ---- every other document: rendered for its request -----------------------------------------

async function documentForThisRequest(
  request: Request,
  status: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
): Promise<Response> {
  const rendered = await render(request, status, remixContext);
  const finished = finish(rendered.html);
  const sources = scriptSources(finished);
  reportRefused(request, sources.refused);
  responseHeaders.set("Content-Security-Policy", documentPolicy(sources.hashes));
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  return new Response(finished.html, { status: rendered.status, headers: responseHeaders });
}

/** What entry.server answers for every document request. */
export async function documentResponse(
  request: Request,
  status: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
): Promise<Response> {
  const page = cachedPageFor(request, status, remixContext);
  if (page) {
    const document = await homeDocument(request, remixContext, page);
    if (document) {
      const response = homeResponse(request, responseHeaders, document);
      // The server's own warm-up is not a document sent to anyone.
      if (!loadContext.warmUp) publish("documentServed", { status: response.status, source: "cached" });
      return response;
    }
  }
  if (!page && homeCouldNotBeBuilt(request, status)) readiness = { ready: false, reason: NOT_RENDERED };
  const response = await documentForThisRequest(request, status, responseHeaders, remixContext);
  publish("documentServed", { status: response.status, source: "rendered" });
  return response;
}
