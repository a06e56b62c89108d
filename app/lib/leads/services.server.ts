import type { Env } from "~/lib/env.server";
import type { ContactSink } from "~/lib/leads/sink.server";
import { createSupabaseSink } from "~/lib/leads/supabase-sink.server";
import { createAlerts } from "~/lib/leads/alerts.server";
import { openDatabase } from "~/lib/leads/database.server";
import { startDispatcher } from "~/lib/leads/dispatcher.server";
import { createContactLimits } from "~/lib/leads/limits.server";
import { createLeadStore, type LeadStoreOptions } from "~/lib/leads/store.server";

/**
 * Everything that keeps and delivers leads, made once per process by the server and by the leads
 * CLI: the one place that reads their configuration.
 */
export type LeadServices = ReturnType<typeof createLeadServices>;

/** How long after a call's timeout its lease still runs: the time to record the outcome. */
const LEASE_MARGIN_MS = 5_000;

export function configuredSink(env: Env): ContactSink | undefined {
  const { SUPABASE_URL: url, SUPABASE_ANON_KEY: anonKey, CONTACT_FUNCTION_TIMEOUT_MS: timeoutMs } = env;
  return url && anonKey ? createSupabaseSink({ url, anonKey, timeoutMs }) : undefined;
}

/** The lead store this configuration names, for the server and the CLI (which logs nothing). */
export function openLeadStore(env: Env, log?: LeadStoreOptions["log"]) {
  const database = openDatabase({
    databaseUrl: env.DATABASE_URL,
    file: env.LEADS_DATABASE_FILE,
    // A request waits for a busy store (a connection, a write lock) as long as for the function.
    busyMs: env.CONTACT_FUNCTION_TIMEOUT_MS,
  });
  const store = createLeadStore({
    database,
    leaseMs: env.CONTACT_FUNCTION_TIMEOUT_MS + LEASE_MARGIN_MS,
    retry: {
      initialMs: env.CONTACT_RETRY_INITIAL_SECONDS * 1000,
      maxMs: env.CONTACT_RETRY_MAX_SECONDS * 1000,
      maxAttempts: env.CONTACT_RETRY_MAX_ATTEMPTS,
    },
    log,
  });
  return { database, store };
}

export function createLeadServices(env: Env) {
  const { database, store } = openLeadStore(env);
  const sink = configuredSink(env);
  const limits = createContactLimits({
    perClient: env.RATE_LIMIT_PER_CLIENT,
    windowSeconds: env.RATE_LIMIT_WINDOW_SECONDS,
    globalPerMinute: env.RATE_LIMIT_GLOBAL_PER_MINUTE,
    pool: database.pool,
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
    /** Connects, migrates and starts the dispatcher. */
    async start() {
      const status = await store.start();
      dispatcher = startDispatcher({
        store,
        sink,
        alerts,
        // Often enough that the first retry is on time, rarely enough to cost nothing.
        intervalMs: Math.max(250, Math.min(5_000, (env.CONTACT_RETRY_INITIAL_SECONDS * 1000) / 2)),
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
