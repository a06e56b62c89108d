import type { Env } from "~/lib/env.server";
import type { ContactSink } from "~/lib/leads/sink.server";
import { createSupabaseSink } from "~/lib/leads/supabase-sink.server";
import { createAlerts } from "~/lib/leads/alerts.server";
import { type DatabaseConfig, openDatabase } from "~/lib/leads/database.server";
import { startDispatcher } from "~/lib/leads/dispatcher.server";
import { createContactLimits } from "~/lib/leads/limits.server";
import { createLeadStore } from "~/lib/leads/store.server";

/**
 * Everything that keeps and delivers leads, made once per process by the server and by the leads
 * CLI: the one place that reads their configuration.
 */
export type LeadServices = ReturnType<typeof createLeadServices>;

/** How long after a call's timeout its lease still runs: the time to record the outcome. */
const LEASE_MARGIN_MS = 5_000;

export function databaseConfig(env: Env): DatabaseConfig {
  // A request waits for a busy store (a connection, a write lock) as long as for the function.
  return {
    databaseUrl: env.DATABASE_URL,
    file: env.LEADS_DATABASE_FILE,
    busyMs: env.CONTACT_FUNCTION_TIMEOUT_MS,
  };
}

export function configuredSink(env: Env): ContactSink | undefined {
  return env.SUPABASE_URL && env.SUPABASE_ANON_KEY
    ? createSupabaseSink({
        url: env.SUPABASE_URL,
        anonKey: env.SUPABASE_ANON_KEY,
        timeoutMs: env.CONTACT_FUNCTION_TIMEOUT_MS,
      })
    : undefined;
}

export function createLeadServices(env: Env) {
  const database = openDatabase(databaseConfig(env));
  const leaseMs = env.CONTACT_FUNCTION_TIMEOUT_MS + LEASE_MARGIN_MS;
  const retry = {
    initialMs: env.CONTACT_RETRY_INITIAL_SECONDS * 1000,
    maxMs: env.CONTACT_RETRY_MAX_SECONDS * 1000,
    maxAttempts: env.CONTACT_RETRY_MAX_ATTEMPTS,
  };
  const store = createLeadStore({ database, leaseMs, retry });
  const sink = configuredSink(env);
  const limits = createContactLimits({
    perClient: env.RATE_LIMIT_PER_CLIENT,
    windowSeconds: env.RATE_LIMIT_WINDOW_SECONDS,
    globalPerMinute: env.RATE_LIMIT_GLOBAL_PER_MINUTE,
    ...(database.pool ? { pool: database.pool } : {}),
  });
  const pendingAlertMs = env.LEADS_ALERT_PENDING_MINUTES * 60_000;
  const alerts = createAlerts({ url: env.LEADS_ALERT_WEBHOOK_URL, store, intervalMs: pendingAlertMs });
  let dispatcher: ReturnType<typeof startDispatcher> | undefined;

  return {
    store,
    /** The function; undefined without SUPABASE_URL, when the store is the inbox. */
    sink,
    limits,
    alerts,
    leaseMs,
    /** Connects, migrates and starts the dispatcher. */
    async start() {
      const status = await store.start();
      dispatcher = startDispatcher({
        store,
        sink,
        alerts,
        // Often enough that the first retry is on time, rarely enough to cost nothing.
        intervalMs: Math.max(250, Math.min(5_000, retry.initialMs / 2)),
        retention: {
          delivered: env.LEADS_RETENTION_DAYS,
          undelivered: env.LEADS_UNDELIVERED_RETENTION_DAYS,
          spam: env.LEADS_SPAM_RETENTION_DAYS,
        },
        pendingAlertMs,
      });
      return status;
    },
    /** Stops the dispatcher (letting its attempt finish), waits for alerts, closes the database. */
    async stop() {
      await dispatcher?.stop();
      await alerts.settled();
      await store.close();
    },
  };
}
