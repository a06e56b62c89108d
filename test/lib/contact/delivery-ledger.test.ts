import { describe, expect, it } from "vitest";

import { createDeliveryLedger } from "~/lib/contact/delivery-ledger.server";

const succeeded = (ok: boolean) => ok;

describe("delivery ledger", () => {
  it("remembers a delivered fingerprint for the window, then forgets it", async () => {
    let now = 0;
    const ledger = createDeliveryLedger(succeeded, { rememberMs: 1_000, now: () => now });
    expect(ledger.recall("a")).toBeUndefined();
    await ledger.track("a", async () => true);
    expect(ledger.recall("a")).toEqual({ kind: "delivered" });
    now = 999;
    expect(ledger.recall("a")).toEqual({ kind: "delivered" });
    now = 1_000;
    expect(ledger.recall("a")).toBeUndefined();
    expect(ledger.size()).toBe(0);
  });

  it("remembers nothing after a failure, so an identical resend is sent", async () => {
    const ledger = createDeliveryLedger(succeeded);
    await ledger.track("a", async () => false);
    expect(ledger.recall("a")).toBeUndefined();
  });

  it("shows a delivery in flight, with its outcome, until it ends", async () => {
    const ledger = createDeliveryLedger(succeeded);
    let finish: (ok: boolean) => void = () => undefined;
    const running = ledger.track("a", () => new Promise<boolean>((resolve) => (finish = resolve)));
    const earlier = ledger.recall("a");
    expect(earlier?.kind).toBe("in-flight");
    finish(false);
    expect(await running).toBe(false);
    expect(earlier?.kind === "in-flight" && (await earlier.outcome)).toBe(false);
    expect(ledger.recall("a")).toBeUndefined();
  });

  it("keeps at most maxRemembered fingerprints, forgetting the oldest first", async () => {
    const ledger = createDeliveryLedger(succeeded, { maxRemembered: 3 });
    for (const fingerprint of ["a", "b", "c", "d"]) await ledger.track(fingerprint, async () => true);
    expect(ledger.size()).toBe(3);
    expect(ledger.recall("a")).toBeUndefined();
    expect(ledger.recall("d")).toEqual({ kind: "delivered" });
  });

  it("holds 10,000 fingerprints by default, whatever the traffic", async () => {
    const ledger = createDeliveryLedger(succeeded);
    for (let i = 0; i < 10_050; i++) await ledger.track(String(i), async () => true);
    expect(ledger.size()).toBe(10_000);
  });
});
