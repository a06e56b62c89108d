import { describe, expect, it } from "vitest";

import { createRateLimiter } from "~/lib/contact/rate-limit.server";

function clock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe("createRateLimiter", () => {
  it("allows 5 per client per window, then refuses with the time until the oldest expires", () => {
    const time = clock();
    const limiter = createRateLimiter({
      perClient: 5,
      windowMs: 600_000,
      globalPerMinute: 1000,
      now: time.now,
    });
    for (let i = 0; i < 5; i++) {
      expect(limiter.consume("1.2.3.4")).toEqual({ allowed: true });
      time.advance(1000);
    }
    expect(limiter.consume("1.2.3.4")).toEqual({ allowed: false, scope: "client", retryAfterSeconds: 595 });
    // Another client is not affected.
    expect(limiter.consume("5.6.7.8")).toEqual({ allowed: true });
    // The oldest expires: one more is allowed, then refused again.
    time.advance(595_000);
    expect(limiter.consume("1.2.3.4")).toEqual({ allowed: true });
    expect(limiter.consume("1.2.3.4").allowed).toBe(false);
  });

  it("refused attempts are not counted", () => {
    const time = clock();
    const limiter = createRateLimiter({
      perClient: 1,
      windowMs: 10_000,
      globalPerMinute: 1000,
      now: time.now,
    });
    expect(limiter.consume("a").allowed).toBe(true);
    for (let i = 0; i < 20; i++) expect(limiter.consume("a").allowed).toBe(false);
    time.advance(10_000);
    expect(limiter.consume("a").allowed).toBe(true);
  });

  it("applies a global ceiling per minute across all clients, and to unknown clients", () => {
    const time = clock();
    const limiter = createRateLimiter({ perClient: 5, windowMs: 600_000, globalPerMinute: 3, now: time.now });
    expect(limiter.consume(undefined).allowed).toBe(true);
    expect(limiter.consume("a").allowed).toBe(true);
    time.advance(30_000);
    expect(limiter.consume("b").allowed).toBe(true);
    expect(limiter.consume("c")).toEqual({ allowed: false, scope: "global", retryAfterSeconds: 30 });
    expect(limiter.consume(undefined).allowed).toBe(false);
    time.advance(30_000);
    expect(limiter.consume(undefined).allowed).toBe(true);
  });

  it("keeps memory bounded, evicting the least recently seen client", () => {
    const time = clock();
    const limiter = createRateLimiter({
      perClient: 1,
      windowMs: 600_000,
      globalPerMinute: 1e9,
      maxClients: 100,
      now: time.now,
    });
    expect(limiter.consume("first").allowed).toBe(true);
    for (let i = 0; i < 10_000; i++) limiter.consume(`client-${i}`);
    expect(limiter.trackedClients()).toBe(100);
    // The first client was evicted, so it is allowed again; a recent one is still limited.
    expect(limiter.consume("first").allowed).toBe(true);
    expect(limiter.consume("client-9999").allowed).toBe(false);
  });
});
