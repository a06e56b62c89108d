import type { ContactSink } from "~/lib/leads/sink.server";
import type { Alerts } from "~/lib/leads/alerts.server";
import { attemptDelivery } from "~/lib/leads/delivery.server";
import type { LeadStore } from "~/lib/leads/store.server";

/**
 * Delivered without an operator: every instance runs one dispatcher, which every `intervalMs`
 * expires lapsed leases, tries the due pending leads, erases by retention (hourly) and alerts on
 * old pending leads. A failing store only delays it; nothing here can take the page down.
 */
export interface DispatcherOptions {
  store: LeadStore;
  /** Undefined without a function (the store is the inbox): only expiry and retention run. */
  sink: ContactSink | undefined;
  alerts?: Alerts;
  intervalMs: number;
  retentionDays: number;
  spamRetentionDays: number;
  pendingAlertMs: number;
  batchSize?: number;
  log?: (event: Record<string, unknown>) => void;
}

export interface Dispatcher {
  /** One pass now (tests; also what the timer runs). */
  runOnce(): Promise<void>;
  /** Stops the timer and waits for the attempt under way, so a deploy never cuts a call short. */
  stop(): Promise<void>;
}

const HOUR_MS = 3_600_000;

export function startDispatcher({
  store,
  sink,
  alerts,
  intervalMs,
  retentionDays,
  spamRetentionDays,
  pendingAlertMs,
  // One at a time: a lead leased just before its own call never waits for its turn under a lease.
  batchSize = 1,
  log = (event) => console.log(JSON.stringify(event)),
}: DispatcherOptions): Dispatcher {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let lastRetention = 0;

  const pass = async () => {
    if (store.status().state !== "ready") return;
    const { held, returned } = await store.expireLeases();
    if (returned.length > 0) log({ event: "lead_lease_expired", leads: returned, state: "pending" });
    if (held.length > 0) {
      log({ event: "lead_lease_expired", leads: held, state: "possibly_delivered" });
      alerts?.notify(
        "possibly-delivered",
        `${held.length} lead(s) whose call may have reached the function (an instance stopped mid-call) are held as possibly delivered: check the mailbox, then npm run leads -- list`,
        { count: held.length },
      );
    }
    if (sink) {
      while (!stopped) {
        const claims = await store.claimDue(batchSize);
        for (const claim of claims)
          await attemptDelivery({ store, sink, ...(alerts ? { alerts } : {}) }, claim, "dispatcher");
        if (claims.length < batchSize) break;
      }
    }
    if (Date.now() - lastRetention >= HOUR_MS) {
      lastRetention = Date.now();
      // `copiesGone` false: a reader kept the old pages in SQLite's log, until the next checkpoint.
      const retained = await store.eraseDeliveredOlderThan(retentionDays);
      if (retained.erased > 0)
        log({
          event: "lead_retention_erased",
          leads: retained.erased,
          retentionDays,
          copiesGone: retained.copiesGone,
        });
      const spam = await store.eraseSpamOlderThan(spamRetentionDays);
      if (spam.erased > 0)
        log({
          event: "lead_spam_erased",
          leads: spam.erased,
          spamRetentionDays,
          copiesGone: spam.copiesGone,
        });
    }
    const counts = await store.counts();
    if (counts.pending > 0 && counts.oldestPendingAgeSeconds * 1000 > pendingAlertMs) {
      alerts?.notify(
        "pending-age",
        `${counts.pending} lead(s) are waiting for the function; the oldest for ${Math.round(counts.oldestPendingAgeSeconds / 60)} minutes`,
        { pending: counts.pending, oldestPendingAgeSeconds: counts.oldestPendingAgeSeconds },
      );
    }
  };

  const runOnce = () => {
    running ??= pass()
      .catch((error: unknown) =>
        log({ event: "lead_dispatch_failed", error: error instanceof Error ? error.message : String(error) }),
      )
      .finally(() => {
        running = undefined;
      });
    return running;
  };

  const tick = () => {
    timer = setTimeout(() => {
      void runOnce().then(() => {
        if (!stopped) tick();
      });
    }, intervalMs);
    timer.unref();
  };
  tick();

  return {
    runOnce,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
