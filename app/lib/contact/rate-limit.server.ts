/**
 * In-memory sliding-window rate limiter for contact submissions: a limit per client
 * and a ceiling across all clients. Memory is bounded: at most `maxClients` clients are
 * tracked (least recently seen evicted first), each with at most `perClient` timestamps.
 * The state is per server instance; behind a load balancer each instance counts alone.
 */

export interface RateLimitOptions {
  perClient: number;
  windowMs: number;
  globalPerMinute: number;
  maxClients?: number;
  now?: () => number;
}

export type RateLimitDecision =
  { allowed: true } | { allowed: false; retryAfterSeconds: number; scope: "client" | "global" };

export interface RateLimiter {
  /** Counts one submission if it is allowed. `client` undefined: only the global ceiling applies. */
  consume(client: string | undefined): RateLimitDecision;
  trackedClients(): number;
}

const MINUTE_MS = 60_000;

/** Drops timestamps older than the window, oldest first (they are in order). */
function prune(times: number[], now: number, windowMs: number): void {
  let stale = 0;
  while (stale < times.length && (times[stale] ?? Infinity) <= now - windowMs) stale++;
  if (stale) times.splice(0, stale);
}

export function createRateLimiter({
  perClient,
  windowMs,
  globalPerMinute,
  maxClients = 10_000,
  now = Date.now,
}: RateLimitOptions): RateLimiter {
  const clients = new Map<string, number[]>();
  const global: number[] = [];

  const retryAfter = (oldest: number, window: number, at: number) =>
    Math.max(1, Math.ceil((oldest + window - at) / 1000));

  return {
    consume(client) {
      const at = now();
      prune(global, at, MINUTE_MS);
      let times: number[] | undefined;
      if (client !== undefined) {
        times = clients.get(client) ?? [];
        prune(times, at, windowMs);
        // Re-insert so the Map's order is least recently seen first.
        clients.delete(client);
        if (times.length) clients.set(client, times);
        if (times.length >= perClient) {
          return {
            allowed: false,
            scope: "client",
            retryAfterSeconds: retryAfter(times[0] ?? at, windowMs, at),
          };
        }
      }
      if (global.length >= globalPerMinute) {
        return {
          allowed: false,
          scope: "global",
          retryAfterSeconds: retryAfter(global[0] ?? at, MINUTE_MS, at),
        };
      }
      global.push(at);
      if (client !== undefined && times) {
        times.push(at);
        clients.set(client, times);
        while (clients.size > maxClients) {
          const oldest = clients.keys().next().value as string;
          clients.delete(oldest);
        }
      }
      return { allowed: true };
    },
    trackedClients: () => clients.size,
  };
}
