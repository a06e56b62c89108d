import { env } from "~/lib/env.server";

/**
 * One structured line at start (server/production.ts, server/dev.ts) saying where contact
 * requests go and how the server reads its proxy headers, so ops never guess. Never the key.
 */
export function startupSummary(): Record<string, unknown> {
  const mocked = env.MOCKS && env.NODE_ENV === "development";
  const sink = mocked
    ? { mode: "mocked", target: "send-contact-email answered by MSW in this process (MOCKS=true)" }
    : env.SUPABASE_URL
      ? { mode: "supabase", target: `${new URL(env.SUPABASE_URL).origin}/functions/v1/send-contact-email` }
      : { mode: "inbox-file", target: env.CONTACT_INBOX_FILE };
  return {
    event: "startup",
    contactSink: sink.mode,
    target: sink.target,
    contactFunctionTimeoutMs: env.CONTACT_FUNCTION_TIMEOUT_MS,
    undeliveredFile: env.CONTACT_UNDELIVERED_FILE,
    siteUrl: env.SITE_URL,
    trustProxy: env.TRUST_PROXY,
    forceHttps: env.FORCE_HTTPS,
    rateLimit: {
      perClient: env.RATE_LIMIT_PER_CLIENT,
      windowSeconds: env.RATE_LIMIT_WINDOW_SECONDS,
      globalPerMinute: env.RATE_LIMIT_GLOBAL_PER_MINUTE,
    },
    analytics: Boolean(env.GA_MEASUREMENT_ID),
    metrics: Boolean(env.METRICS_TOKEN),
  };
}
