/**
 * What makes contact submissions idempotent (decision 026): per server instance, the requests
 * delivered in the last `rememberMs` and the ones being sent right now, by fingerprint (the same
 * e-mail in any case and the same message: `fingerprintOf`).
 *
 * - A request delivered within the window is not sent again: a reload, a back/forward or a second
 *   tab gets the success notice.
 * - A request identical to one in flight (a double click, two tabs, a reload while the first is
 *   pending) waits for that one's outcome and shares it: one call to the function, never two.
 * - After a failure nothing is remembered, so an identical resend is a real retry.
 *
 * Memory is bounded: at most `maxRemembered` delivered fingerprints (64 hex characters and a
 * timestamp each, the oldest forgotten first) and one promise per request in flight, which the
 * rate limiter bounds. Another instance behind the same load balancer, or a restart, does not see
 * this memory.
 */

export interface DeliveryLedgerOptions {
  rememberMs?: number;
  maxRemembered?: number;
  now?: () => number;
}

export type Earlier<Outcome> =
  { kind: "delivered" } | { kind: "in-flight"; outcome: Promise<Outcome> } | undefined;

export interface DeliveryLedger<Outcome> {
  /** What is known of an earlier identical request: delivered recently, in flight, or nothing. */
  recall(fingerprint: string): Earlier<Outcome>;
  /**
   * Runs the delivery and makes it visible to `recall` until it ends; remembers it when `delivered`
   * says it succeeded. Call it in the same turn as `recall` so that no identical request slips in
   * between.
   */
  track(fingerprint: string, delivery: () => Promise<Outcome>): Promise<Outcome>;
  /** How many delivered fingerprints are remembered (metrics, tests). */
  size(): number;
}

export const DEFAULT_REMEMBER_MS = 10 * 60_000;
export const DEFAULT_MAX_REMEMBERED = 10_000;

export function createDeliveryLedger<Outcome>(
  delivered: (outcome: Outcome) => boolean,
  {
    rememberMs = DEFAULT_REMEMBER_MS,
    maxRemembered = DEFAULT_MAX_REMEMBERED,
    now = Date.now,
  }: DeliveryLedgerOptions = {},
): DeliveryLedger<Outcome> {
  // Insertion order is delivery order, so the oldest entries are first to expire and to evict.
  const deliveredAt = new Map<string, number>();
  const inFlight = new Map<string, Promise<Outcome>>();

  const forgetExpired = (at: number) => {
    for (const [fingerprint, time] of deliveredAt) {
      if (at - time < rememberMs) break;
      deliveredAt.delete(fingerprint);
    }
  };

  return {
    recall(fingerprint) {
      forgetExpired(now());
      if (deliveredAt.has(fingerprint)) return { kind: "delivered" };
      const outcome = inFlight.get(fingerprint);
      return outcome ? { kind: "in-flight", outcome } : undefined;
    },

    async track(fingerprint, delivery) {
      const running = delivery();
      inFlight.set(fingerprint, running);
      try {
        const outcome = await running;
        if (delivered(outcome)) {
          deliveredAt.delete(fingerprint);
          deliveredAt.set(fingerprint, now());
          while (deliveredAt.size > maxRemembered) {
            const oldest = deliveredAt.keys().next().value as string;
            deliveredAt.delete(oldest);
          }
        }
        return outcome;
      } finally {
        if (inFlight.get(fingerprint) === running) inFlight.delete(fingerprint);
      }
    },

    size: () => deliveredAt.size,
  };
}
