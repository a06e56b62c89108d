import { env } from "~/lib/env.server";
import type { StoreStatus } from "~/lib/leads/store.server";

/** One line at start: where leads are kept and go, so ops never guess. Never a key or a password. */
export function startupSummary(store: StoreStatus): Record<string, unknown> {
  const mocked = env.MOCKS && env.NODE_ENV === "development";
  const sink = mocked
    ? { mode: "mocked", target: "send-contact-email answered by MSW in this process (MOCKS=true)" }
    : env.SUPABASE_URL
      ? { mode: "supabase", target: `${new URL(env.SUPABASE_URL).origin}/functions/v1/send-contact-email` }
      : { mode: "inbox", target: "the lead store's inbox (npm run leads -- list --inbox)" };
  return {
    event: "startup",
    contactSink: sink.mode,
    target: sink.target,
    contactFunctionTimeoutMs: env.CONTACT_FUNCTION_TIMEOUT_MS,
    // JSON leaves out a reason that is undefined (a store that is up).
    leadStore: { engine: store.engine, location: store.location, state: store.state, reason: store.reason },
    retry: {
      initialSeconds: env.CONTACT_RETRY_INITIAL_SECONDS,
      maxSeconds: env.CONTACT_RETRY_MAX_SECONDS,
      maxAttempts: env.CONTACT_RETRY_MAX_ATTEMPTS,
    },
    retentionDays: {
      delivered: env.LEADS_RETENTION_DAYS,
      undelivered: env.LEADS_UNDELIVERED_RETENTION_DAYS,
      spam: env.LEADS_SPAM_RETENTION_DAYS,
    },
    alerts: Boolean(env.LEADS_ALERT_WEBHOOK_URL),
    siteUrl: env.SITE_URL,
    trustProxy: env.TRUST_PROXY,
    forceHttps: env.FORCE_HTTPS,
    rateLimit: {
      perClient: env.RATE_LIMIT_PER_CLIENT,
      windowSeconds: env.RATE_LIMIT_WINDOW_SECONDS,
      globalPerMinute: env.RATE_LIMIT_GLOBAL_PER_MINUTE,
      shared: Boolean(env.DATABASE_URL),
    },
    analytics: Boolean(env.GA_MEASUREMENT_ID),
    metrics: Boolean(env.METRICS_TOKEN),
  };
}
