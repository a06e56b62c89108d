import { createHash, timingSafeEqual } from "node:crypto";

import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";

import { contactResults, contactSubmitted } from "~/lib/contact/events.server";
import { documentServed } from "~/lib/document/events.server";
import { dispatcherPassed, functionCalled, leadAttempted } from "~/lib/leads/events.server";
import type { LeadCounts } from "~/lib/leads/store.server";

/**
 * What ops can scrape at GET /metrics (docs/production.md): it only subscribes to what the app
 * publishes (`~/lib/events.server`). Labels carry values from fixed sets, never a visitor's text.
 */
export interface Metrics {
  text(): Promise<string>;
  contentType: string;
}

export interface MetricsOptions {
  /** The lead store's counts (they change in other instances and the CLI too: read at each scrape). */
  leadCounts: () => Promise<LeadCounts>;
}

/** The lead store's counts as gauges, by metric name: the count each shows, and its help. */
const LEAD_GAUGES: Record<string, [keyof LeadCounts, string]> = {
  leads_pending: ["pending", "Leads whose call failed for sure, waiting for the dispatcher's next attempt."],
  leads_possibly_delivered: [
    "possiblyDelivered",
    "Leads whose call had an unknown outcome: held for a person, never resent automatically.",
  ],
  leads_dead: ["dead", "Leads that failed CONTACT_RETRY_MAX_ATTEMPTS times: held for a person."],
  leads_spam: [
    "spam",
    "Submissions held as spam: never sent, released by a person, erased after LEADS_SPAM_RETENTION_DAYS.",
  ],
  leads_oldest_pending_age_seconds: [
    "oldestPendingAgeSeconds",
    "Seconds since the oldest pending lead arrived (0 when none is pending).",
  ],
};

export function createMetrics({ leadCounts }: MetricsOptions): Metrics {
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

  // One query per scrape, shared by the lead gauges.
  let counts: Promise<LeadCounts | undefined> | undefined;
  const readCounts = () =>
    (counts ??= leadCounts()
      .catch((error: unknown) => {
        // The store is down: say "unknown" rather than a number that looks fine.
        console.error(
          JSON.stringify({ event: "metrics_lead_store_unavailable", error: (error as Error).message }),
        );
        return undefined;
      })
      .finally(() => setTimeout(() => (counts = undefined), 0)));
  for (const [name, [count, help]] of Object.entries(LEAD_GAUGES))
    new Gauge({
      name,
      help,
      registers: [registry],
      async collect() {
        const value = await readCounts();
        this.set(value ? value[count] : Number.NaN);
      },
    });

  const leadAttempts = new Counter({
    name: "lead_delivery_attempts_total",
    help: "Attempts to deliver a lead, by who made them (visitor, dispatcher, cli) and the lead's state after.",
    labelNames: ["by", "outcome"] as const,
    registers: [registry],
  });

  const dispatcherPasses = new Counter({
    name: "lead_dispatcher_passes_total",
    help: "Passes of this instance's dispatcher that ran to their end (a stalled dispatcher stops counting).",
    registers: [registry],
  });

  const documentsServed = new Counter({
    name: "documents_served_total",
    help: "HTML documents served, by HTTP status and whether the document was made at build (prerendered) or for the request.",
    labelNames: ["status", "source"] as const,
    registers: [registry],
  });

  contactSubmitted.subscribe(({ result }) => contactSubmissions.inc({ result }));
  leadAttempted.subscribe(({ by, outcome }) => leadAttempts.inc({ by, outcome }));
  dispatcherPassed.subscribe(() => dispatcherPasses.inc());
  functionCalled.subscribe(({ outcome, seconds }) => functionDuration.observe({ outcome }, seconds));
  documentServed.subscribe(({ status, source }) => documentsServed.inc({ status: String(status), source }));

  return { text: () => registry.metrics(), contentType: registry.contentType };
}

const digest = (value: string) => createHash("sha256").update(value, "utf8").digest();

/** Compared as SHA-256 digests in constant time: neither the token nor its length leaks. */
export function metricsAuthorized(authorization: string | undefined, token: string | undefined): boolean {
  if (!token) return false;
  const given = /^Bearer +(\S+) *$/i.exec(authorization ?? "")?.[1] ?? "";
  return timingSafeEqual(digest(given), digest(token));
}
