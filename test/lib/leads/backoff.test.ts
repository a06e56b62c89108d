import { describe, expect, it } from "vitest";

import { retryDelayMs } from "~/lib/leads/backoff";

const policy = { initialMs: 30_000, maxMs: 3_600_000, maxAttempts: 20 };

describe("retry delay", () => {
  it("doubles from the initial delay, with half of it random (equal jitter)", () => {
    expect(retryDelayMs(1, policy, () => 0)).toBe(15_000);
    expect(retryDelayMs(1, policy, () => 1)).toBe(30_000);
    expect(retryDelayMs(2, policy, () => 0)).toBe(30_000);
    expect(retryDelayMs(3, policy, () => 1)).toBe(120_000);
  });

  it("never exceeds the maximum, however many attempts", () => {
    for (const attempts of [8, 20, 100, 10_000]) {
      expect(retryDelayMs(attempts, policy, () => 1)).toBe(3_600_000);
      expect(retryDelayMs(attempts, policy, () => 0)).toBe(1_800_000);
    }
  });

  it("spreads the retries of one outage apart", () => {
    const delays = new Set(Array.from({ length: 50 }, () => retryDelayMs(4, policy)));
    expect(delays.size).toBeGreaterThan(40);
    for (const delay of delays) expect(delay).toBeGreaterThanOrEqual(120_000);
  });
});
