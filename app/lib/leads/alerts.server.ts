import type { AlertSlot, LeadStore } from "~/lib/leads/store.server";

/**
 * Ops hear about leads that need a person (docs/lead-store.md, Alerts); a webhook that fails gives
 * its turn back, for the dispatcher's next pass.
 */
export type AlertKind = "dead" | "possibly-delivered" | "pending-age" | "erasure-soon";

export interface Alerts {
  /** Fire and forget: never throws, never waits for the webhook. */
  notify(kind: AlertKind, text: string, details?: Record<string, number | string>): void;
  /** Resolves when every alert started so far has ended (shutdown, tests). */
  settled(): Promise<void>;
}

export interface AlertOptions {
  url: string | undefined;
  store: Pick<LeadStore, "claimAlert" | "releaseAlert">;
  intervalMs: number;
  log?: (event: Record<string, unknown>) => void;
}

const WEBHOOK_TIMEOUT_MS = 5_000;

export function createAlerts({
  url,
  store,
  intervalMs,
  log = (event) => console.error(JSON.stringify(event)),
}: AlertOptions): Alerts {
  const running = new Set<Promise<void>>();

  const send = async (kind: AlertKind, text: string, details: Record<string, number | string>) => {
    if (!url) return;
    let slot: AlertSlot | undefined;
    try {
      slot = await store.claimAlert(kind, intervalMs);
      if (!slot) return;
      const response = await fetch(url, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ text, kind, ...details }),
        signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
      });
      void response.body?.cancel().catch(() => undefined);
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      log({ event: "lead_alert_sent", kind, status: response.status });
    } catch (error) {
      log({
        event: "lead_alert_failed",
        kind,
        error: error instanceof Error ? error.message : String(error),
      });
      if (slot) await store.releaseAlert(slot).catch(() => undefined);
    }
  };

  return {
    notify(kind, text, details = {}) {
      const work = send(kind, text, details);
      running.add(work);
      void work.finally(() => running.delete(work));
    },
    async settled() {
      await Promise.all([...running]);
    },
  };
}
