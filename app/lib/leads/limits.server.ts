import type pg from "pg";
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes } from "rate-limiter-flexible";

import type { LimitDecision } from "~/lib/leads/store.server";

/**
 * The contact form's limits, per client and for everybody (docs/lead-store.md), counted apart for
 * spam, so a spam flood never uses up a real visitor's limit behind the same address.
 */
export interface ContactLimitsOptions {
  perClient: number;
  windowSeconds: number;
  globalPerMinute: number;
  pool?: pg.Pool;
}

/** What is counted: a valid request, or one held as spam (decision 042). */
export type SubmissionKind = "lead" | "spam";

export interface ContactLimits {
  /** Counts one submission of this kind if it is allowed. `client` undefined: only the ceiling applies. */
  consume(client: string | undefined, kind?: SubmissionKind): Promise<LimitDecision>;
}

type Limiter = RateLimiterMemory | RateLimiterPostgres;

function limiter(points: number, duration: number, keyPrefix: string, pool?: pg.Pool): Limiter {
  const memory = new RateLimiterMemory({ points, duration, keyPrefix });
  if (!pool) return memory;
  return new RateLimiterPostgres({
    storeClient: pool,
    storeType: "pool",
    tableName: "contact_rate_limits",
    tableCreated: true, // by the migration
    // Rows are keyed by the client's address (personal data): deleted an hour after they expire.
    clearExpiredByTimeout: true,
    points,
    duration,
    keyPrefix,
    insuranceLimiter: memory,
  });
}

const retryAfter = (res: RateLimiterRes) => Math.max(1, Math.ceil(res.msBeforeNext / 1000));

export function createContactLimits(options: ContactLimitsOptions): ContactLimits {
  const { perClient, windowSeconds, globalPerMinute, pool } = options;
  // Real requests keep the prefixes they always had (rows already counted stay counted).
  const limitersOf = (prefix: string) => ({
    perClient: limiter(perClient, windowSeconds, `${prefix}-client`, pool),
    ceiling: limiter(globalPerMinute, 60, `${prefix}-all`, pool),
  });
  const limiters = { lead: limitersOf("contact"), spam: limitersOf("contact-spam") };

  // The limiter rejects with a RateLimiterRes when over its limit, and with an Error when it fails.
  const consume = (target: Limiter, key: string): Promise<RateLimiterRes | undefined> =>
    target.consume(key).then(
      () => undefined,
      (rejection: unknown) => {
        if (rejection instanceof RateLimiterRes) return rejection;
        throw rejection;
      },
    );

  return {
    async consume(client, kind = "lead") {
      const { perClient: perClientLimiter, ceiling } = limiters[kind];
      if (client !== undefined) {
        const refused = await consume(perClientLimiter, client);
        if (refused) return { allowed: false, scope: "client", retryAfterSeconds: retryAfter(refused) };
      }
      const refused = await consume(ceiling, "all");
      if (refused) return { allowed: false, scope: "global", retryAfterSeconds: retryAfter(refused) };
      return { allowed: true };
    },
  };
}
