/**
 * When a lead whose call failed for sure is tried again: exponential backoff from `initialMs`,
 * doubling per attempt up to `maxMs`, with "equal jitter" (half the delay fixed, half random) so
 * that the leads of one outage, on every instance, do not all call the function at the same
 * moment when it comes back.
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
