import { createHash, timingSafeEqual } from "node:crypto";

import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";

import { type ContactResult, contactResults } from "~/lib/contact/log.server";
import type { SendResult } from "~/lib/contact/sink.server";
import { countPending } from "~/lib/contact/undelivered-store.server";
import { env } from "~/lib/env.server";
import { nonDocumentHeadersFor } from "~/lib/security/policy.server";

/**
 * What ops can scrape at GET /metrics (docs/production.md). Labels only ever carry values from
 * fixed sets (results, failure reasons, status codes): never anything a visitor typed.
 */

export const registry = new Registry();

collectDefaultMetrics({ register: registry });

export const contactSubmissions = new Counter({
  name: "contact_submissions_total",
  help: "Contact form submissions by result, as in the contact_submission log line.",
  labelNames: ["result"] as const,
  registers: [registry],
});
// Every result from zero, so that rate() works from the first scrape.
for (const result of contactResults) contactSubmissions.inc({ result }, 0);

export const contactFunctionDuration = new Histogram({
  name: "contact_function_duration_seconds",
  help: "Duration of calls to the send-contact-email function, by outcome (ok or the failure reason).",
  labelNames: ["outcome"] as const,
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30],
  registers: [registry],
});

export const undeliveredPending = new Gauge({
  name: "contact_undelivered_pending",
  help: "Contact requests kept in CONTACT_UNDELIVERED_FILE and not yet delivered (unreadable lines included).",
  registers: [registry],
  async collect() {
    try {
      this.set(await countPending(env.CONTACT_UNDELIVERED_FILE));
    } catch (error) {
      // The file exists but cannot be read: say "unknown" rather than a number that looks fine.
      this.set(Number.NaN);
      console.error(
        JSON.stringify({ event: "metrics_undelivered_unreadable", error: (error as Error).message }),
      );
    }
  },
});

export const documentsServed = new Counter({
  name: "documents_served_total",
  help: "HTML documents served, by HTTP status and whether the document came from the render cache.",
  labelNames: ["status", "source"] as const,
  registers: [registry],
});

export function countContactSubmission(result: ContactResult): void {
  contactSubmissions.inc({ result });
}

export function observeFunctionCall(result: SendResult, seconds: number): void {
  contactFunctionDuration.observe({ outcome: result.ok ? "ok" : result.reason }, seconds);
}

export function countDocumentServed(status: number, source: "cached" | "rendered"): void {
  documentsServed.inc({ status: String(status), source });
}

const digest = (value: string) => createHash("sha256").update(value, "utf8").digest();

/**
 * Whether the request carries `Authorization: Bearer <METRICS_TOKEN>`. Compared as SHA-256 digests
 * in constant time, so neither the token's content nor its length leaks through timing.
 */
export function metricsAuthorized(request: Request, token: string | undefined = env.METRICS_TOKEN): boolean {
  if (!token) return false;
  const header = request.headers.get("authorization") ?? "";
  const given = /^Bearer +(\S+) *$/i.exec(header)?.[1] ?? "";
  return timingSafeEqual(digest(given), digest(token));
}

/** The Prometheus text exposition of every metric, never cached. */
export async function metricsResponse(request: Request): Promise<Response> {
  return new Response(await registry.metrics(), {
    headers: {
      "Content-Type": registry.contentType,
      "Cache-Control": "no-store",
      ...nonDocumentHeadersFor(request),
    },
  });
}
