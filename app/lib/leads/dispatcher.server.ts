import type { ContactSink } from "~/lib/leads/sink.server";
import type { AlertKind, Alerts } from "~/lib/leads/alerts.server";
import { attemptDelivery } from "~/lib/leads/delivery.server";
import { dispatcherPassed } from "~/lib/leads/events.server";
import type { LeadCounts, LeadStore, RetentionDays } from "~/lib/leads/store.server";

/**
 * Delivered without an operator: every instance runs one dispatcher (expiry, due leads, hourly
 * retention, alerts). A failing store only delays it; nothing here can take the page down.
 */
export interface DispatcherOptions {
  store: LeadStore;
  /** Undefined without a function (the store is the inbox): only expiry, retention and alerts run. */
  sink: ContactSink | undefined;
  alerts?: Alerts;
  intervalMs: number;
  retention: RetentionDays;
  pendingAlertMs: number;
  log?: (event: Record<string, unknown>) => void;
}

const HOUR_MS = 3_600_000;
const DAY_SECONDS = 86_400;
/** How long before an undelivered lead is erased ops hear of it. */
const ERASURE_NOTICE_DAYS = 7;

const LIST = "npm run leads -- list";

/** The alerts the levels call for (docs/lead-store.md, Alerts): counts only, never a lead's data. */
export function alertsFor(
  { dead, possiblyDelivered: held, pending, ...ages }: LeadCounts,
  pendingAlertMs: number,
  undeliveredDays: number,
) {
  const erasedInDays = Math.ceil(undeliveredDays - ages.oldestUndeliveredAgeSeconds / DAY_SECONDS);
  const rows: [AlertKind, boolean, string, Record<string, number>][] = [
    ["dead", dead > 0, `${dead} lead(s) failed every attempt and are held for a person: ${LIST}`, { dead }],
    [
      "possibly-delivered",
      held > 0,
      `${held} lead(s) may have reached the function without a confirmation and are held: check the mailbox, then \`npm run leads -- resolve <id>\` or \`retry --include-possibly-delivered\``,
      { possiblyDelivered: held },
    ],
    [
      "pending-age",
      pending > 0 && ages.oldestPendingAgeSeconds * 1000 > pendingAlertMs,
      `${pending} lead(s) are waiting for the function; the oldest for ${Math.round(ages.oldestPendingAgeSeconds / 60)} minutes`,
      { pending, oldestPendingAgeSeconds: ages.oldestPendingAgeSeconds },
    ],
    [
      "erasure-soon",
      pending + dead + held > 0 && erasedInDays <= ERASURE_NOTICE_DAYS,
      `A lead never confirmed will be erased within ${Math.max(0, erasedInDays)} day(s) (LEADS_UNDELIVERED_RETENTION_DAYS=${undeliveredDays}): ${LIST}`,
      { oldestUndeliveredAgeSeconds: ages.oldestUndeliveredAgeSeconds },
    ],
  ];
  return rows.filter(([, up]) => up).map(([kind, , text, details]) => ({ kind, text, details }));
}

export function startDispatcher({
  store,
  sink,
  alerts,
  intervalMs,
  retention,
  pendingAlertMs,
  log = (event) => console.log(JSON.stringify(event)),
}: DispatcherOptions) {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let lastRetention: number | undefined;

  const pass = async () => {
    if (store.status().state !== "ready") return;
    const { held, returned } = await store.expireLeases();
    if (returned.length > 0) log({ event: "lead_lease_expired", leads: returned, state: "pending" });
    if (held.length > 0) log({ event: "lead_lease_expired", leads: held, state: "possibly_delivered" });
    if (lastRetention === undefined || performance.now() - lastRetention >= HOUR_MS) {
      lastRetention = performance.now();
      // Before any call: a lead past its retention is erased, never sent. `copiesGone` false: a
      // reader kept old pages in SQLite's log, until next hour's checkpoint.
      const erased = await store.eraseExpired(retention);
      log({ event: "lead_retention", ...erased, retention });
    }
    // One at a time: a lead leased just before its own call never waits for its turn under a lease.
    for (
      let claims = sink ? await store.claimDue(1) : [];
      claims.length > 0 && !stopped;
      claims = await store.claimDue(1)
    )
      await attemptDelivery({ store, sink: sink! }, claims[0]!, "dispatcher");
    for (const alert of alertsFor(await store.counts(), pendingAlertMs, retention.undelivered))
      alerts?.notify(alert.kind, alert.text, alert.details);
    dispatcherPassed.publish({});
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
    /** One pass now (tests; also what the timer runs). */
    runOnce,
    /** Stops the timer and waits for the attempt under way, so a deploy never cuts a call short. */
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
