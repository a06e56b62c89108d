import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";

import type { KyselyPlugin, QueryId } from "kysely";

import { openDatabase } from "~/lib/leads/database.server";
import { createLeadStore, type LeadStore } from "~/lib/leads/store.server";

import { request } from "../lib/leads/store-contract";
import { describeWithPostgres, type PostgresServer, startPostgres } from "../support/postgres";

/**
 * A claim names the states it may take a lead from (issue 40): on PostgreSQL an UPDATE that waits
 * for a row another session holds re-checks its WHERE on the row that session commits, so a claim
 * of "not being sent" would take a lead just delivered and call the function again.
 */
interface Sessions {
  store: LeadStore;
  other: pg.Client;
  /** Resolves once a statement of the store waits for a lock (the other session's row). */
  waitingForTheRow(): Promise<void>;
}

describeWithPostgres("claims on PostgreSQL while another session changes the row", () => {
  let server: PostgresServer;
  beforeAll(async () => {
    server = await startPostgres();
  });
  afterAll(async () => {
    await server?.destroy();
  });

  async function withSessions(work: (sessions: Sessions) => Promise<void>): Promise<void> {
    const databaseUrl = await server.createDatabase();
    const store = createLeadStore({
      database: openDatabase({ databaseUrl, file: "" }),
      leaseMs: 15_000,
      retry: { initialMs: 30_000, maxMs: 3_600_000, maxAttempts: 3 },
      log: () => undefined,
    });
    const other = new pg.Client({ connectionString: databaseUrl });
    const watcher = new pg.Client({ connectionString: databaseUrl });
    try {
      expect((await store.start()).state).toBe("ready");
      await other.connect();
      await watcher.connect();
      const waitingForTheRow = () =>
        expect
          .poll(async () =>
            Number((await watcher.query("select count(*) from pg_locks where not granted")).rows[0].count),
          )
          .toBeGreaterThan(0);
      await work({ store, other, waitingForTheRow });
    } finally {
      await other.end().catch(() => undefined);
      await watcher.end().catch(() => undefined);
      await store.close();
    }
  }

  it("a visitor's resend that waits for a row another session makes delivered never takes it", () =>
    withSessions(async ({ store, other, waitingForTheRow }) => {
      const allow = async () => ({ allowed: true as const });
      const first = await store.admit(request(), { mode: "function", allow });
      if (first.kind !== "claimed") throw new Error(first.kind);
      await store.recordOutcome(first.claim, { ok: false, reason: "http", status: 503 });
      expect((await store.get(first.claim.lead.id))?.state).toBe("pending");

      // The other session's outcome, not yet committed: it holds the row.
      await other.query("begin");
      await other.query(
        "update leads set state = 'delivered', delivered_at = $1, lease_until = null, lease_token = null where id = $2",
        [Date.now(), first.claim.lead.id],
      );
      const resend = store.admit(request(), { mode: "function", allow });
      // The resend has read the lead as pending and now waits for the row lock.
      await waitingForTheRow();
      await other.query("commit");
      const admission = await resend;
      expect(admission.kind, "the resend must not claim a delivered lead").not.toBe("claimed");
      expect(await store.get(first.claim.lead.id)).toMatchObject({ state: "delivered", attempts: 1 });
    }));

  it("a person's release that waits for a spam row another session erases answers that it is no longer spam", () =>
    withSessions(async ({ store, other, waitingForTheRow }) => {
      const held = await store.admit(request(), {
        mode: "function",
        allow: async () => ({ allowed: true as const }),
        spam: ["honeypot"],
      });
      if (held.kind !== "stored") throw new Error(held.kind);

      // `forget` (or the spam's erasure), not yet committed: it holds the row, and takes no
      // fingerprint lock, so the release reads the lead as spam, then waits for the row.
      await other.query("begin");
      await other.query("delete from leads where id = $1", [held.id]);
      const release = store.releaseSpam(held.id, "function");
      await waitingForTheRow();
      await other.query("commit");
      expect(await release).toEqual({ kind: "not-spam" });
      expect(await store.get(held.id)).toBeUndefined();
    }));

  it("an identical post reads its fingerprint once: a confirmation landing mid-admission never makes a second lead", async () => {
    const databaseUrl = await server.createDatabase();
    const options = {
      leaseMs: 15_000,
      retry: { initialMs: 30_000, maxMs: 3_600_000, maxAttempts: 3 },
      log: () => undefined,
    };
    const confirming = createLeadStore({ ...options, database: openDatabase({ databaseUrl, file: "" }) });
    // After the admission's second look at the leads (the first is outside its transaction, the
    // second inside), another instance records the function's late confirmation of the open lead.
    let looks = 0;
    let confirm: (() => Promise<unknown>) | undefined;
    const selects = new Set<QueryId>();
    const midAdmission: KyselyPlugin = {
      transformQuery: (args) => {
        if (args.node.kind === "SelectQueryNode") selects.add(args.queryId);
        return args.node;
      },
      transformResult: async (args) => {
        if (selects.has(args.queryId) && ++looks === 2 && confirm) await confirm();
        return args.result;
      },
    };
    const opened = openDatabase({ databaseUrl, file: "" });
    const admitting = createLeadStore({
      ...options,
      database: { ...opened, db: opened.db.withPlugin(midAdmission) },
    });
    try {
      expect((await confirming.start()).state).toBe("ready");
      expect((await admitting.start()).state).toBe("ready");
      const allow = async () => ({ allowed: true as const });
      const first = await confirming.admit(request(), { mode: "function", allow });
      if (first.kind !== "claimed") throw new Error(first.kind);
      // Its call failed for sure: pending, an identical post is its next attempt...
      await confirming.recordOutcome(first.claim, { ok: false, reason: "http", status: 503 });
      // ...unless the function's late answer to that call lands meanwhile.
      confirm = () => confirming.recordOutcome(first.claim, { ok: true });
      looks = 0;
      const admission = await admitting.admit(request(), { mode: "function", allow });
      expect(looks, "the hook ran").toBeGreaterThanOrEqual(2);
      expect(admission).toEqual({ kind: "in-flight", id: first.claim.lead.id });
      const leads = await confirming.list(["sending", "pending", "delivered", "possibly_delivered", "dead"]);
      expect(leads.map((lead) => [lead.id, lead.state])).toEqual([[first.claim.lead.id, "delivered"]]);
    } finally {
      await admitting.close();
      await confirming.close();
    }
  });
});
