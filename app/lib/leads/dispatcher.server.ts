import type { ContactSink } from "~/lib/leads/sink.server";
import type { Alerts } from "~/lib/leads/alerts.server";
import { attemptDelivery } from "~/lib/leads/delivery.server";
import { dispatcherPassed } from "~/lib/leads/events.server";
import type { LeadCounts, LeadStore, RetentionDays } from "~/lib/leads/store.server";

/**
 * Delivered without an operator: every instance runs one dispatcher, which every `intervalMs`
 * expires lapsed leases, tries the due pending leads, erases by retention (on its first pass, then
 * hourly) and alerts from the levels of leads that need a person. A failing store only delays it;
 * nothing here can take the page down.
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

export interface Dispatcher {
  /** One pass now (tests; also what the timer runs). */
  runOnce(): Promise<void>;
  /** Stops the timer and waits for the attempt under way, so a deploy never cuts a call short. */
  stop(): Promise<void>;
}

const HOUR_MS = 3_600_000;
const DAY_SECONDS = 86_400;
/** How long before an undelivered lead is erased ops hear of it. */
const ERASURE_NOTICE_DAYS = 7;

const LIST = "npm run leads -- list";

/** The alerts the levels call for (docs/lead-store.md, Alerts): each pass, sent at most once per kind per interval. */
export function alertsFor(counts: LeadCounts, pendingAlertMs: number, undeliveredDays: number) {
  const alerts: {
    kind: "dead" | "possibly-delivered" | "pending-age" | "erasure-soon";
    text: string;
    details: Record<string, number>;
  }[] = [];
  if (counts.dead > 0)
    alerts.push({
      kind: "dead",
      text: `${counts.dead} lead(s) failed every attempt and are held for a person: ${LIST}`,
      details: { dead: counts.dead },
    });
  if (counts.possiblyDelivered > 0)
    alerts.push({
      kind: "possibly-delivered",
      text: `${counts.possiblyDelivered} lead(s) may have reached the function without a confirmation and are held: check the mailbox, then \`npm run leads -- resolve <id>\` or \`retry --include-possibly-delivered\``,
      details: { possiblyDelivered: counts.possiblyDelivered },
    });
  if (counts.pending > 0 && counts.oldestPendingAgeSeconds * 1000 > pendingAlertMs)
    alerts.push({
      kind: "pending-age",
      text: `${counts.pending} lead(s) are waiting for the function; the oldest for ${Math.round(counts.oldestPendingAgeSeconds / 60)} minutes`,
      details: { pending: counts.pending, oldestPendingAgeSeconds: counts.oldestPendingAgeSeconds },
    });
  const erasedInSeconds = undeliveredDays * DAY_SECONDS - counts.oldestUndeliveredAgeSeconds;
  if (
    counts.pending + counts.dead + counts.possiblyDelivered > 0 &&
    erasedInSeconds <= ERASURE_NOTICE_DAYS * DAY_SECONDS
  )
    alerts.push({
      kind: "erasure-soon",
      text: `A lead never confirmed will be erased within ${Math.max(0, Math.ceil(erasedInSeconds / DAY_SECONDS))} day(s) (LEADS_UNDELIVERED_RETENTION_DAYS=${undeliveredDays}): ${LIST}`,
      details: { oldestUndeliveredAgeSeconds: counts.oldestUndeliveredAgeSeconds },
    });
  return alerts;
}

export function startDispatcher({
  store,
  sink,
  alerts,
  intervalMs,
  retention,
  pendingAlertMs,
  log = (event) => console.log(JSON.stringify(event)),
}: DispatcherOptions): Dispatcher {
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
    runOnce,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
