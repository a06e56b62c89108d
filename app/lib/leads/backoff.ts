/**
 * Exponential backoff with "equal jitter" (half the delay random), so that the leads of one outage
 * do not all call the function the moment it comes back.
 */
export interface RetryPolicy {
  initialMs: number;
  maxMs: number;
  /** Attempts after which a lead is `dead` (held for a person). */
  maxAttempts: number;
}

export function retryDelayMs(
  attempts: number,
  { initialMs, maxMs }: RetryPolicy,
  random = Math.random,
): number {
  const exponent = Math.min(Math.max(attempts - 1, 0), 30);
  const delay = Math.min(maxMs, initialMs * 2 ** exponent);
  return Math.round(delay / 2 + (random() * delay) / 2);
}
