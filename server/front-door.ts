// What `npm start` answers before Express and Remix see the request (decision 041): the prerendered
// pages (server/home-document.ts), the build's files and `/healthz`. Every header is written once,
// at start, from the sources the rest of the server uses; per request only the encoding, a 304 and
// HTTPS are decided.
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from "node:http";

import { isContactSentUrl } from "~/lib/contact/answer";
import { documentServed } from "~/lib/document/events.server";
import type { Env } from "~/lib/env.server";
import type { StoreStatus } from "~/lib/leads/store.server";
import { defaultHeaders } from "~/lib/security/headers.server";
import { forwardedAsHttps } from "~/lib/security/proxy.server";

import { healthReport } from "./health";
import type { HomeDocuments, HomePage, PrerenderedPage } from "./home-document";
import { chooseEncoding, type Encoding, matchesIfNoneMatch } from "./http-rules";
import type { StaticFile } from "./static-files";

interface Representation {
  etag: string;
  body: Buffer;
  ok: OutgoingHttpHeaders;
  notModified: OutgoingHttpHeaders;
}

/** Representations by HTTPS known (1) or not (0): Strict-Transport-Security only over HTTPS. */
type ByEncoding = Record<Encoding, [Representation, Representation]>;

/** The site's baseline headers, with node's lower-case names. */
function baseline(https: boolean): OutgoingHttpHeaders {
  return Object.fromEntries(
    Object.entries(defaultHeaders(https)).map(([name, value]) => [name.toLowerCase(), value]),
  );
}

interface Servable {
  tag: string;
  bodies: Partial<Record<Encoding, Buffer>> & { identity: Buffer };
  /** Its own headers (type, caching, policy), which take the baseline's place. */
  headers: Record<string, string>;
}

function representation(file: Servable, encoding: Encoding, https: boolean): Representation {
  const etag = `"${file.tag}${encoding === "identity" ? "" : `-${encoding}`}"`;
  const body = file.bodies[encoding] ?? file.bodies.identity;
  const common: OutgoingHttpHeaders = { ...baseline(https), ...file.headers, etag };
  const ok: OutgoingHttpHeaders = {
    ...common,
    ...(encoding === "identity" ? {} : { "content-encoding": encoding }),
    "content-length": String(body.length),
  };
  return { etag, body, ok, notModified: common };
}

/** Each encoding (missing ones fall back to the plain bytes), for HTTP and for HTTPS. */
function representations(file: Servable): ByEncoding {
  const both = (encoding: Encoding): [Representation, Representation] => {
    const has = file.bodies[encoding] ? encoding : "identity";
    return [representation(file, has, false), representation(file, has, true)];
  };
  return { br: both("br"), gzip: both("gzip"), identity: both("identity") };
}

/** no-transform: a proxy that rewrote the bytes would break the script hashes the policy lists. */
function pageServable(page: PrerenderedPage): Servable {
  return {
    ...page,
    headers: {
      ...page.headers,
      "cache-control": withNoTransform(page.headers["cache-control"] ?? null),
      vary: "Accept-Encoding",
    },
  };
}

function answer(request: IncomingMessage, response: ServerResponse, byEncoding: ByEncoding, https: boolean) {
  const encoding = chooseEncoding(request.headers["accept-encoding"] ?? null);
  const chosen = byEncoding[encoding][https ? 1 : 0];
  if (matchesIfNoneMatch(request.headers["if-none-match"] ?? null, chosen.etag)) {
    response.writeHead(304, chosen.notModified).end();
  } else {
    response.writeHead(200, chosen.ok).end(request.method === "HEAD" ? undefined : chosen.body);
  }
}

function withNoTransform(cacheControl: string | null): string {
  if (!cacheControl) return "no-transform";
  return /\bno-transform\b/i.test(cacheControl) ? cacheControl : `${cacheControl}, no-transform`;
}

/**
 * The prerendered page a request target asks for, or null: `/` with any query (campaign parameters
 * do not change the page) but `_data` (refused by the server's URL guard).
 */
export function prerenderedPageFor(target: string): HomePage | null {
  if (target === "/") return "home";
  if (!target.startsWith("/?")) return null;
  const url = new URL(target, "http://localhost");
  if (url.searchParams.has("_data")) return null;
  return isContactSentUrl(url) ? "contact-sent" : "home";
}

export type IsHttps = (request: IncomingMessage) => boolean;

/** Whether HTTPS is known (HSTS is sent then): forced by FORCE_HTTPS, or reported by a trusted proxy. */
export function httpsAsConfigured(config: Pick<Env, "FORCE_HTTPS" | "TRUST_PROXY">): IsHttps {
  const proto = (request: IncomingMessage) => request.headers["x-forwarded-proto"]?.toString() ?? null;
  return (request) => config.FORCE_HTTPS || forwardedAsHttps(proto(request), config.TRUST_PROXY);
}

/** The paths the front door answers (test/security/every-route.test.ts requests each). */
export const FRONT_DOOR_PATHS = ["/", "/?contact=sent", "/healthz"] as const;

type Answerer = (request: IncomingMessage, response: ServerResponse) => boolean;

interface HealthOptions {
  isHttps: IsHttps;
  storeStatus: () => StoreStatus | undefined;
}

/** `/healthz`: never cached (the baseline's no-store: a load balancer asks about now). */
export function healthEndpoint({ isHttps, storeStatus }: HealthOptions): Answerer {
  const headers = [false, true].map((https) => ({
    ...baseline(https),
    "content-type": "application/json; charset=utf-8",
  }));
  return (request, response) => {
    const { method, url = "" } = request;
    if ((method !== "GET" && method !== "HEAD") || (url !== "/healthz" && !url.startsWith("/healthz?")))
      return false;
    const body = JSON.stringify(healthReport(storeStatus()));
    response
      .writeHead(200, {
        ...headers[isHttps(request) ? 1 : 0],
        "content-length": String(Buffer.byteLength(body)),
      })
      .end(method === "HEAD" ? undefined : body);
    return true;
  };
}

interface FrontDoorOptions extends HealthOptions {
  pages: HomeDocuments;
  files: Map<string, StaticFile>;
  storeStatus: () => StoreStatus;
}

/** The request listener's first step: false leaves the request to the app. */
export function frontDoor({ pages, files, isHttps, storeStatus }: FrontDoorOptions): Answerer {
  const health = healthEndpoint({ isHttps, storeStatus });
  const byPage = {} as Record<HomePage, ByEncoding>;
  for (const [page, document] of Object.entries(pages) as [HomePage, PrerenderedPage][])
    byPage[page] = representations(pageServable(document));
  const byPath = new Map([...files].map(([path, file]) => [path, representations(file)]));
  return (request, response) => {
    const { method } = request;
    if (method !== "GET" && method !== "HEAD") return false;
    const target = request.url ?? "";
    const page = prerenderedPageFor(target);
    if (page !== null) {
      answer(request, response, byPage[page], isHttps(request));
      documentServed.publish({ status: response.statusCode, source: "prerendered" });
      return true;
    }
    const file = byPath.get(target.split("?", 1)[0]!);
    if (file) {
      answer(request, response, file, isHttps(request));
      return true;
    }
    return health(request, response);
  };
}
