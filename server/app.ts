// The Express application behind `npm start` and `npm run dev`: docs/architecture.md draws the
// paths; decision 027 says why this replaced remix-serve.
import path from "node:path";

import { createRequestHandler } from "@remix-run/express";
import type { ServerBuild } from "@remix-run/node";
import compression from "compression";
import express, { type ErrorRequestHandler, type Request, type RequestHandler, type Response } from "express";
import onHeaders from "on-headers";

import { createContactAction } from "~/lib/contact/action.server";
import { contactSubmitted } from "~/lib/contact/events.server";
import { logContactOutcome } from "~/lib/contact/log.server";
import { env } from "~/lib/env.server";
import type { LeadServices } from "~/lib/leads/services.server";
import { CACHE_CONTROL, completeHeaders } from "~/lib/security/headers.server";
import { clientAddress, clientLimitKey, normalizeAddress } from "~/lib/security/proxy.server";

import { httpsAsConfigured } from "./front-door";
import { createMetrics, metricsAuthorized } from "./metrics";

export interface AppOptions {
  /** The checkout: `public/` and the build's relative asset folder are found from here. */
  root: string;
  /** The current server build (development swaps it after each rebuild). */
  getBuild: () => ServerBuild;
  mode: "production" | "development";
  /** This process's lead store, function, limits and alerts. */
  leads: LeadServices;
  /** Routes mounted before everything else (development's live-reload stream). */
  before?: (app: express.Express) => void;
}

/**
 * One JSON line per request, never with the query string (it may carry what a visitor typed), and
 * never a stack trace for a client's mistake.
 */
function logWhenAnswered(req: Request, res: Response): void {
  const started = performance.now();
  const path = (req.originalUrl.split("?", 1)[0] ?? "/").slice(0, 2048);
  res.on("finish", () => {
    console.log(
      JSON.stringify({
        event: "request",
        method: req.method,
        path: (res.locals.originalPath as string | undefined) ?? path,
        status: res.statusCode,
        durationMs: Math.round((performance.now() - started) * 10) / 10,
      }),
    );
  });
}

const accessLog: RequestHandler = (req, res, next) => {
  logWhenAnswered(req, res);
  next();
};

function isDecodable(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

const isHttps = httpsAsConfigured(env);

/** Every response's security and caching headers, unless it set one itself (a document's policy). */
const everyResponseHeaders: RequestHandler = (req, res, next) => {
  const https = isHttps(req);
  onHeaders(res, function complete() {
    completeHeaders(this, https);
  });
  next();
};

/**
 * URLs the app must not see as they are:
 * - `?_data=`: Remix's pre-single-fetch protocol, which our code never sends but Remix still runs
 *   (a 500 for a route without a loader): a 400 before anything runs.
 * - A path that is not valid percent-encoding (`/%`), which Express and Remix fail to decode: its
 *   `%` escaped so it routes, and the app answers with its own 400 page (app/routes/$.tsx).
 */
const guardUrls: RequestHandler = (req, res, next) => {
  const [path = "/", ...rest] = req.originalUrl.split("?");
  const query = rest.join("?");
  if (query && new URLSearchParams(query).has("_data")) {
    logWhenAnswered(req, res);
    res.status(400).json({ error: "Bad Request" });
    return;
  }
  if (!isDecodable(path)) {
    const escaped = path.replace(/%/g, "%25") + (rest.length ? `?${query}` : "");
    req.url = escaped;
    req.originalUrl = escaped;
    res.locals.malformedPath = true;
    res.locals.originalPath = path.slice(0, 2048);
  }
  next();
};

/** The last resort: an error no handler answered. A stack trace only for the server's own faults. */
const lastResort: ErrorRequestHandler = (error, req, res, next) => {
  const raw = (error ?? {}) as { status?: unknown; statusCode?: unknown };
  const code = Number(raw.status ?? raw.statusCode);
  const status = code >= 400 && code < 600 ? code : 500;
  if (status >= 500) console.error(error);
  if (res.headersSent) return next(error);
  res
    .status(status)
    .type("text/plain")
    .send(status >= 500 ? "Internal Server Error" : "Bad Request");
};

/** Static files, with the caching of their kind; no access log line. */
function staticFiles(dir: string, cacheControl: string): RequestHandler {
  return express.static(dir, {
    cacheControl: false,
    setHeaders: (res) => res.setHeader("Cache-Control", cacheControl),
  });
}

/** GET /metrics with `Authorization: Bearer <METRICS_TOKEN>`; anything else gets the app's 404. */
function metricsEndpoint(leads: LeadServices): RequestHandler {
  const metrics = createMetrics({ leadCounts: () => leads.store.counts() });
  return (req, res, next) => {
    if (req.method !== "GET" || !metricsAuthorized(req.headers.authorization, env.METRICS_TOKEN))
      return next();
    // setHeader, not res.type: Express would rewrite the exposition format's exact content type.
    metrics.text().then((text) => res.setHeader("Content-Type", metrics.contentType).end(text), next);
  };
}

/**
 * The client for the per-client limit: the address a trusted proxy saw, else the socket's, never a
 * header a visitor can write. An IPv6 client counts by its /64 (clientLimitKey).
 */
function contactClient(request: globalThis.Request, socketAddress: string | undefined): string | undefined {
  const forwarded = env.TRUST_PROXY > 0 ? clientAddress(request, env.TRUST_PROXY) : undefined;
  const address = forwarded ?? (socketAddress ? normalizeAddress(socketAddress) : undefined);
  return address === undefined ? undefined : clientLimitKey(address);
}

export function createApp({ root, getBuild, mode, before, leads }: AppOptions): express.Express {
  // Made once for the process: one store and one dispatcher behind it, whichever build runs.
  const contactAction = createContactAction({
    leads,
    log: (outcome) => {
      logContactOutcome(outcome);
      contactSubmitted.publish({ result: outcome.result });
    },
  });
  const build = getBuild();
  const app = express();
  app.disable("x-powered-by");
  app.use(everyResponseHeaders);
  before?.(app);
  app.use(guardUrls);
  app.use(compression());
  app.use(build.publicPath, staticFiles(path.resolve(root, build.assetsBuildDirectory), CACHE_CONTROL.asset));
  app.use(staticFiles(path.join(root, "public"), CACHE_CONTROL.file));
  app.use(accessLog);
  app.use("/metrics", metricsEndpoint(leads));
  const handlerFor = (current: ServerBuild) =>
    createRequestHandler({
      build: current,
      mode,
      getLoadContext: (req, res) => ({
        malformedPath: res.locals.malformedPath === true,
        contactAction: (request) => contactAction(request, contactClient(request, req.socket.remoteAddress)),
      }),
    });
  let handled = build;
  let handle = handlerFor(build);
  // `app.use`, not `app.all("*")`: Express would decode the whole path as a route parameter first.
  app.use((req, res, next) => {
    const current = getBuild();
    if (current !== handled) {
      handled = current;
      handle = handlerFor(current);
    }
    return handle(req, res, next);
  });
  app.use(lastResort);
  return app;
}
