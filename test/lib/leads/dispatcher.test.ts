import { mkdtempSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import type { ContactSink, SendResult } from "~/lib/leads/sink.server";
import { type Alerts, createAlerts } from "~/lib/leads/alerts.server";
import { openDatabase } from "~/lib/leads/database.server";
import { startDispatcher } from "~/lib/leads/dispatcher.server";
import { createLeadStore, type LeadStore } from "~/lib/leads/store.server";

import { request } from "./store-contract";

/**
 * The dispatcher and the alerts on a real SQLite store, with a fake function (a sink that answers
 * as told) and a real webhook receiver on 127.0.0.1.
 */

interface Hook {
  url: string;
  bodies: Record<string, unknown>[];
  close(): Promise<void>;
}

async function startHook(status = 200): Promise<Hook> {
  const bodies: Record<string, unknown>[] = [];
  const server: Server = createServer((req, res) => {
    let text = "";
    req.on("data", (chunk: Buffer) => (text += chunk.toString()));
    req.on("end", () => {
      bodies.push(JSON.parse(text) as Record<string, unknown>);
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${address.port}/hook`,
    bodies,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const allow = async () => ({ allowed: true as const });

describe("dispatcher", () => {
  let clock: number;
  let store: LeadStore;
  let hook: Hook;
  let alerts: Alerts;
  const answers: SendResult[] = [];
  const calls: string[] = [];
  const sink: ContactSink = {
    mode: "supabase",
    async send(_request, { idempotencyKey }) {
      calls.push(idempotencyKey);
      return answers.shift() ?? { ok: true };
    },
  };
  const silent = () => undefined;

  beforeEach(async () => {
    clock = Date.UTC(2026, 10, 25, 12);
    calls.length = 0;
    answers.length = 0;
    const database = openDatabase({ file: join(mkdtempSync(join(tmpdir(), "dispatch-")), "leads.sqlite") });
    store = createLeadStore({
      database,
      leaseMs: 5_000,
      retry: { initialMs: 1_000, maxMs: 4_000, maxAttempts: 3 },
      now: () => clock,
      log: silent,
    });
    await store.start();
    hook = await startHook();
    alerts = createAlerts({ url: hook.url, store, intervalMs: 60_000, log: silent });
  });
  afterEach(async () => {
    await alerts.settled();
    await store.close();
    await hook.close();
  });

  const failedLead = async (email: string, sent: SendResult) => {
    const admission = await store.admit(request({ email }), { mode: "function", allow });
    if (admission.kind !== "claimed") throw new Error(admission.kind);
    await store.recordOutcome(admission.claim, sent);
    return admission.claim.lead.id;
  };

  /** A dispatcher whose timer never fires in a test: each pass is the test's `runOnce`. */
  const dispatcher = (options: Partial<Parameters<typeof startDispatcher>[0]> = {}) =>
    startDispatcher({
      store,
      sink,
      alerts,
      intervalMs: 3_600_000,
      retention: { delivered: 90, undelivered: 180, spam: 30 },
      pendingAlertMs: 30 * 60_000,
      log: silent,
      ...options,
    });

  // Retrying a due pending lead under its id until it is delivered: test/http/lead-delivery.test.ts.
  it("never sends spam, and erases it once it is older than spamRetentionDays (decision 042)", async () => {
    const old = await store.admit(request({ email: "old-spam@example.com" }), {
      mode: "function",
      allow,
      spam: ["honeypot"],
    });
    clock += 29 * 86_400_000;
    const recent = await store.admit(request({ email: "new-spam@example.com" }), {
      mode: "function",
      allow,
      spam: ["links"],
    });
    clock += 86_400_000 + 1;
    const running = dispatcher();
    await running.runOnce();
    expect(calls).toEqual([]);
    if (old.kind !== "stored" || recent.kind !== "stored") throw new Error("not stored");
    expect(await store.get(old.id)).toBeUndefined();
    expect((await store.get(recent.id))?.state).toBe("spam");
    await running.stop();
  });

  it("leases each due lead just before its own call: while one is being sent, the others still wait (issue 33)", async () => {
    const ids = [];
    for (let index = 0; index < 4; index++)
      ids.push(await failedLead(`batch${index}@example.com`, { ok: false, reason: "http", status: 500 }));
    clock += 10_000;
    const sendingDuringCalls: number[] = [];
    const slow: ContactSink = {
      mode: "supabase",
      async send(_request, { idempotencyKey }) {
        calls.push(idempotencyKey);
        sendingDuringCalls.push((await store.list(["sending"])).length);
        // The function is slow: the time of a lease passes during each call.
        clock += 6_000;
        return { ok: true };
      },
    };
    const running = dispatcher({ sink: slow });
    await running.runOnce();
    expect([...calls].sort()).toEqual([...ids].sort());
    expect(sendingDuringCalls).toEqual([1, 1, 1, 1]);
    // No lease ran out before its call: every lead delivered, none held as possibly delivered.
    expect((await store.list(["delivered"])).length).toBe(4);
    expect(await store.expireLeases()).toEqual({ held: [], returned: [] });
    await running.stop();
  });

  it("a lead that fails its last attempt is dead, and ops get one alert without personal data", async () => {
    const id = await failedLead("dead@example.com", { ok: false, reason: "http", status: 500 });
    const running = dispatcher();
    for (let round = 0; round < 2; round++) {
      clock += 4_000;
      answers.push({ ok: false, reason: "http", status: 500 });
      await running.runOnce();
    }
    expect((await store.get(id))?.state).toBe("dead");
    await alerts.settled();
    expect(hook.bodies).toHaveLength(1);
    expect(hook.bodies[0]).toMatchObject({ kind: "dead", dead: 1 });
    expect(String(hook.bodies[0]?.text)).toContain("npm run leads");
    expect(JSON.stringify(hook.bodies)).not.toMatch(/dead@example|Ada|invoices/);
    await running.stop();
  });

  it("a possibly delivered lead is never sent again; a lease expired mid-call becomes one; alerted once per interval while any is held", async () => {
    const held = await failedLead("held@example.com", {
      ok: false,
      reason: "timeout",
      possiblyDelivered: true,
    });
    const stuck = await store.admit(request({ email: "stuck@example.com" }), { mode: "function", allow });
    if (stuck.kind !== "claimed") throw new Error(stuck.kind);
    // Its call began, and its process died before the outcome.
    expect(await store.beginCall(stuck.claim)).toBe(true);
    const running = dispatcher();
    clock += 10_000;
    await running.runOnce();
    clock += 3_600_000;
    await running.runOnce();
    expect(calls).toEqual([]);
    expect((await store.get(held))?.state).toBe("possibly_delivered");
    expect((await store.get(stuck.claim.lead.id))?.state).toBe("possibly_delivered");
    await alerts.settled();
    // The first pass's, and the one an interval later: the level is still two.
    expect(hook.bodies).toMatchObject([
      { kind: "possibly-delivered", possiblyDelivered: 2 },
      { kind: "possibly-delivered", possiblyDelivered: 2 },
    ]);
    await running.stop();
  });

  it("a lease that expired before its call began (its process died between claim and call) is sent by the dispatcher, once, under the lead's key, with no alert", async () => {
    const stuck = await store.admit(request({ email: "never-called@example.com" }), {
      mode: "function",
      allow,
    });
    if (stuck.kind !== "claimed") throw new Error(stuck.kind);
    const running = dispatcher();
    clock += 3_600_000;
    await running.runOnce();
    expect(calls).toEqual([stuck.claim.lead.id]);
    expect(await store.get(stuck.claim.lead.id)).toMatchObject({ state: "delivered", attempts: 1 });
    await alerts.settled();
    expect(hook.bodies).toEqual([]);
    await running.stop();
  });

  it("alerts when the oldest pending lead is older than the limit, at most once per interval", async () => {
    await failedLead("slow@example.com", { ok: false, reason: "http", status: 503 });
    // No function to try it with (as when SUPABASE_URL is removed): it only waits, and ages.
    const running = dispatcher({ sink: undefined });
    clock += 29 * 60_000;
    await running.runOnce();
    await alerts.settled();
    expect(hook.bodies).toEqual([]);
    clock += 2 * 60_000;
    await running.runOnce();
    await running.runOnce();
    await alerts.settled();
    expect(hook.bodies).toHaveLength(1);
    expect(hook.bodies[0]).toMatchObject({ kind: "pending-age", pending: 1 });
    await running.stop();
  });

  it("a webhook that fails does not silence an alert: the next pass reads the levels and sends each again", async () => {
    await hook.close();
    hook = await startHook(500);
    alerts = createAlerts({ url: hook.url, store, intervalMs: 60_000, log: silent });
    await failedLead("waiting@example.com", { ok: false, reason: "http", status: 503 });
    await failedLead("held@example.com", { ok: false, reason: "timeout", possiblyDelivered: true });
    const running = dispatcher({ sink: undefined, pendingAlertMs: 60_000 });
    clock += 2 * 60_000;
    await running.runOnce();
    await alerts.settled();
    clock += 1_000;
    await running.runOnce();
    await alerts.settled();
    expect(hook.bodies.map((body) => body.kind).sort()).toEqual([
      "pending-age",
      "pending-age",
      "possibly-delivered",
      "possibly-delivered",
    ]);
    await running.stop();
  });

  it("erases an undelivered lead LEADS_UNDELIVERED_RETENTION_DAYS after its receipt, on a start's first pass, and alerts a week before", async () => {
    const id = await failedLead("old@example.com", { ok: false, reason: "http", status: 503 });
    /** A server started now: its dispatcher's first pass. */
    const firstPass = async () => {
      const running = dispatcher({
        sink: undefined,
        retention: { delivered: 90, undelivered: 10, spam: 30 },
        pendingAlertMs: 365 * 86_400_000,
      });
      await running.runOnce();
      await running.stop();
      await alerts.settled();
    };
    clock += 2 * 86_400_000;
    await firstPass();
    expect(hook.bodies).toEqual([]);
    clock += 2 * 86_400_000;
    await firstPass();
    expect(hook.bodies).toMatchObject([{ kind: "erasure-soon" }]);
    expect(String(hook.bodies[0]?.text)).toContain("within 6 day(s)");
    expect((await store.get(id))?.state).toBe("pending");
    clock += 6 * 86_400_000 + 1;
    await firstPass();
    expect(await store.get(id)).toBeUndefined();
  });

  it("a webhook that fails never holds a lead", async () => {
    await hook.close();
    hook = await startHook(500);
    const failing = createAlerts({
      url: "http://127.0.0.1:9/nothing-listens",
      store,
      intervalMs: 60_000,
      log: silent,
    });
    const id = await failedLead("hook@example.com", { ok: false, reason: "http", status: 500 });
    const running = dispatcher({ alerts: failing, pendingAlertMs: 1 });
    clock += 1_000;
    await running.runOnce();
    expect((await store.get(id))?.state).toBe("delivered");
    await failing.settled();
    await running.stop();
  });
});
