import type { ContactSink } from "~/lib/leads/sink.server";
import type { Alerts } from "~/lib/leads/alerts.server";
import { attemptDelivery } from "~/lib/leads/delivery.server";
import type { LeadStore } from "~/lib/leads/store.server";

/**
 * Delivered without an operator: every instance runs one dispatcher, which every `intervalMs`
 * - holds as possibly delivered the attempts whose lease expired mid-call (their process died),
 *   and puts back to pending those whose lease expired before their call began,
 * - claims the pending leads that are due (another instance skips those taken) and tries them,
 * - erases the personal fields of leads confirmed more than `retentionDays` ago, and the leads
 *   held as spam for more than `spamRetentionDays` (hourly),
 * - alerts when the oldest pending lead is older than `pendingAlertMs`.
 * A failing store only delays this; nothing here can take the page down.
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
  // One at a time: each lead is leased just before its own call, so a lease never runs out while
  // the lead waits its turn behind a slow function (another instance would take it for abandoned),
  // and a stop leaves no lead leased that was never called.
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
    // Never called (their process stopped, or lost the store, between the claim and the call):
    // back to pending, sent below like any other due lead.
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
      // `copiesGone` false: a reader kept the old pages in SQLite's write-ahead log; the next
      // checkpoint (at the latest the next hour's) zeroes them. Said, never assumed.
      const erasures = [
        {
          event: "lead_retention_erased",
          days: { retentionDays },
          run: () => store.eraseDeliveredOlderThan(retentionDays),
        },
        {
          event: "lead_spam_erased",
          days: { spamRetentionDays },
          run: () => store.eraseSpamOlderThan(spamRetentionDays),
        },
      ];
      for (const { event, days, run } of erasures) {
        const { erased, copiesGone } = await run();
        if (erased > 0) log({ event, leads: erased, ...days, copiesGone });
      }
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
