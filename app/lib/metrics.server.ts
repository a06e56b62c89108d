import { createHash, timingSafeEqual } from "node:crypto";

import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";

import { contactResults, subscribe } from "~/lib/events.server";

/**
 * What ops can scrape at GET /metrics (docs/production.md). The server owns the registry
 * (server/app.ts) and it only observes: it subscribes to what the app publishes
 * (`~/lib/events.server`), and is told how to count the undelivered leads. Labels only ever carry
 * values from fixed sets (results, failure reasons, status codes): never anything a visitor typed.
 */
export interface Metrics {
  /** The Prometheus text exposition of every metric. */
  text(): Promise<string>;
  contentType: string;
}

export interface MetricsOptions {
  /** How many contact requests wait in the undelivered file (it can change outside this process). */
  pendingLeads: () => Promise<number>;
}

export function createMetrics({ pendingLeads }: MetricsOptions): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });

  const contactSubmissions = new Counter({
    name: "contact_submissions_total",
    help: "Contact form submissions by result, as in the contact_submission log line.",
    labelNames: ["result"] as const,
    registers: [registry],
  });
  // Every result from zero, so that rate() works from the first scrape.
  for (const result of contactResults) contactSubmissions.inc({ result }, 0);

  const functionDuration = new Histogram({
    name: "contact_function_duration_seconds",
    help: "Duration of calls to the send-contact-email function, by outcome (ok or the failure reason).",
    labelNames: ["outcome"] as const,
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30],
    registers: [registry],
  });

  new Gauge({
    name: "contact_undelivered_pending",
    help: "Contact requests kept in CONTACT_UNDELIVERED_FILE and not yet delivered (unreadable lines included).",
    registers: [registry],
    async collect() {
      try {
        this.set(await pendingLeads());
      } catch (error) {
        // The file exists but cannot be read: say "unknown" rather than a number that looks fine.
        this.set(Number.NaN);
        console.error(
          JSON.stringify({ event: "metrics_undelivered_unreadable", error: (error as Error).message }),
        );
      }
    },
  });

  const documentsServed = new Counter({
    name: "documents_served_total",
    help: "HTML documents served, by HTTP status and whether the document came from the render cache.",
    labelNames: ["status", "source"] as const,
    registers: [registry],
  });

  subscribe("contactSubmitted", ({ result }) => contactSubmissions.inc({ result }));
  subscribe("functionCalled", ({ outcome, seconds }) => functionDuration.observe({ outcome }, seconds));
  subscribe("documentServed", ({ status, source }) =>
    documentsServed.inc({ status: String(status), source }),
  );

  return { text: () => registry.metrics(), contentType: registry.contentType };
}

const digest = (value: string) => createHash("sha256").update(value, "utf8").digest();

/**
 * Whether an `Authorization` header value is `Bearer <token>`. Compared as SHA-256 digests in
 * constant time, so neither the token's content nor its length leaks through timing.
 */
export function metricsAuthorized(authorization: string | undefined, token: string | undefined): boolean {
  if (!token) return false;
  const given = /^Bearer +(\S+) *$/i.exec(authorization ?? "")?.[1] ?? "";
  return timingSafeEqual(digest(given), digest(token));
}
