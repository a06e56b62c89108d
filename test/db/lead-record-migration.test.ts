import { copyFileSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { type DatabaseConfig, openDatabase } from "~/lib/leads/database.server";
import { createLeadStore, type Lead, leadStates } from "~/lib/leads/store.server";

import { describeWithPostgres, type PostgresServer, startPostgres } from "../support/postgres";

/**
 * Migration "005-lead-record" (issue 53): a database of the store that kept each value in a column
 * of its own (the fixture: one lead in every state) is migrated at start, on both engines, and every
 * lead is kept: its state, its bookkeeping and its values, now one document.
 */

const fixtures = join(import.meta.dirname, "fixtures", "before-lead-record");
/** The visitor's values as the fixture's columns hold them, each under its key in the document. */
const VALUE_COLUMNS = {
  name: "name",
  email: "email",
  phone: "phone",
  company: "company",
  website: "website",
  companySize: "company_size",
  industry: "industry",
  message: "message",
};
const allow = async () => ({ allowed: true as const });

type OldRow = Record<string, string | number | null | undefined>;

/** The lead the store must give for a row of the old schema (pg gives bigints as text: numbers here). */
function expectedLead(row: OldRow) {
  const number = (value: OldRow[string]) => (value === null || value === undefined ? null : Number(value));
  return {
    id: row.id,
    state: row.state,
    fingerprint: row.fingerprint,
    receivedAt: number(row.received_at),
    deliveredAt: number(row.delivered_at),
    erasedAt: number(row.erased_at),
    attempts: number(row.attempts),
    nextAttemptAt: number(row.next_attempt_at),
    leaseUntil: number(row.lease_until),
    callStartedAt: number(row.call_started_at),
    requestId: row.request_id,
    lastReason: row.last_reason,
    lastStatus: number(row.last_status),
    spamSignals: row.spam_signals ? String(row.spam_signals).split(",") : [],
    request:
      row.erased_at === null
        ? Object.fromEntries(Object.entries(VALUE_COLUMNS).map(([key, column]) => [key, row[column]]))
        : null,
  };
}

async function expectEveryLeadKept(config: DatabaseConfig, before: OldRow[]) {
  // The fixture holds a lead in every state, two of them erased: what the migration must keep.
  expect(new Set(before.map((row) => row.state))).toEqual(
    new Set(["delivered", "inbox", "pending", "possibly_delivered", "dead", "spam", "sending"]),
  );
  expect(before.filter((row) => row.erased_at !== null)).toHaveLength(2);
  const store = createLeadStore({
    database: openDatabase(config),
    leaseMs: 15_000,
    retry: { initialMs: 30_000, maxMs: 3_600_000, maxAttempts: 3 },
    log: () => undefined,
  });
  try {
    expect(await store.start()).toMatchObject({ state: "ready" });
    const after = await store.list(leadStates);
    expect(after.map((lead) => lead.id).sort()).toEqual(before.map((row) => String(row.id)).sort());
    for (const row of before)
      expect(after.find((lead) => lead.id === row.id)).toMatchObject(expectedLead(row) as Partial<Lead>);
    // Still the same leads to the store: a resend of the pending one is its next attempt (one row,
    // one key), and `forget` finds the held one by its address.
    const pending = after.find((lead) => lead.state === "pending")!;
    const resent = await store.admit(pending.request!, { mode: "function", allow });
    expect(resent).toMatchObject({ kind: "claimed", claim: { lead: { id: pending.id } } });
    const held = after.find((lead) => lead.state === "possibly_delivered")!;
    expect(await store.forget(held.request!.email.toUpperCase())).toMatchObject({ erased: 1 });
  } finally {
    await store.close();
  }
}

describe("the lead record's migration on SQLite", () => {
  it("keeps every lead of a file written before it, in every state, with its values", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "lead-record-")), "leads.sqlite");
    copyFileSync(join(fixtures, "leads.sqlite"), file);
    const reader = new Database(file, { readonly: true });
    const before = reader.prepare("select * from leads").all() as OldRow[];
    reader.close();
    await expectEveryLeadKept({ file }, before);
  });
});

describeWithPostgres("the lead record's migration on PostgreSQL", () => {
  let server: PostgresServer;
  beforeAll(async () => {
    server = await startPostgres();
  });
  afterAll(async () => {
    await server?.destroy();
  });

  it("keeps every lead of a database written before it, in every state, with its values", async () => {
    const databaseUrl = await server.createDatabase();
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    let before: OldRow[];
    try {
      await client.query(readFileSync(join(fixtures, "leads.postgres.sql"), "utf8"));
      before = (await client.query<OldRow>("select * from leads")).rows;
    } finally {
      await client.end();
    }
    await expectEveryLeadKept({ databaseUrl, file: "" }, before);
  });
});
