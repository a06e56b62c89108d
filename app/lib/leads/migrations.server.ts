import { type Kysely, sql } from "kysely";

import type { Engine } from "~/lib/leads/database.server";
import { emailKey } from "~/lib/leads/fingerprint.server";
import { type Migration, Migrator } from "kysely/migration";

/**
 * The lead store's schema for both engines, as Kysely migrations in code (the server is one bundle).
 * Replicas that start together migrate once (Kysely's lock). Never edit a shipped migration.
 */

const OPEN_STATES = "('sending', 'pending', 'possibly_delivered', 'dead')";

/** The request's columns as 001 made them: 005 moves them into the lead's document. */
const REQUEST_COLUMNS = "name email phone company website company_size industry message".split(" ");

const leadsIndex = (db: Kysely<unknown>, name: string, columns: string[]) =>
  db.schema.createIndex(name).on("leads").columns(columns).execute();

const migrations = (engine: Engine): Record<string, Migration> => ({
  "001-leads": {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("leads")
        .addColumn("id", "varchar(36)", (col) => col.primaryKey())
        .addColumn("fingerprint", "varchar(64)", (col) => col.notNull())
        .addColumn("state", "varchar(24)", (col) => col.notNull())
        .addColumn("received_at", "bigint", (col) => col.notNull())
        .addColumn("name", "text", (col) => col.notNull())
        .addColumn("email", "text", (col) => col.notNull())
        // `emailKey`, by JavaScript's Unicode rules (SQL's lower() is ASCII-only): what forget matches.
        .addColumn("email_key", "text", (col) => col.notNull())
        .addColumn("phone", "text", (col) => col.notNull())
        .addColumn("company", "text", (col) => col.notNull())
        .addColumn("website", "text", (col) => col.notNull())
        .addColumn("company_size", "text", (col) => col.notNull())
        .addColumn("industry", "text", (col) => col.notNull())
        .addColumn("message", "text", (col) => col.notNull())
        .addColumn("request_id", "varchar(128)")
        .addColumn("source", "varchar(24)", (col) => col.notNull())
        .addColumn("attempts", "integer", (col) => col.notNull().defaultTo(0))
        .addColumn("next_attempt_at", "bigint")
        .addColumn("lease_until", "bigint")
        .addColumn("lease_token", "varchar(36)")
        .addColumn("last_attempt_at", "bigint")
        .addColumn("last_reason", "varchar(16)")
        .addColumn("last_status", "integer")
        .addColumn("delivered_at", "bigint")
        .addColumn("erased_at", "bigint")
        .execute();
      // At most one open lead per fingerprint, whatever the code above it does.
      await sql`create unique index leads_open_fingerprint on leads (fingerprint) where state in ${sql.raw(OPEN_STATES)}`.execute(
        db,
      );
      await leadsIndex(db, "leads_fingerprint_received", ["fingerprint", "received_at"]);
      await leadsIndex(db, "leads_state_due", ["state", "next_attempt_at"]);
      await leadsIndex(db, "leads_email_key", ["email_key"]);
      await db.schema
        .createTable("lead_alerts")
        .addColumn("kind", "varchar(32)", (col) => col.primaryKey())
        .addColumn("sent_at", "bigint", (col) => col.notNull())
        .execute();
      // The shared contact limits (rate-limiter-flexible's table shape), created once here.
      await db.schema
        .createTable("contact_rate_limits")
        .addColumn("key", "varchar(255)", (col) => col.primaryKey())
        .addColumn("points", "integer", (col) => col.notNull().defaultTo(0))
        .addColumn("expire", "bigint")
        .execute();
    },
  },
  // The compared address became NFC before the case fold: an address typed decomposed
  // was stored under a key that `forget` with the same address typed composed never matched.
  "002-email-key-nfc": {
    async up(db: Kysely<unknown>) {
      const rows = await sql<{ id: string; email: string; email_key: string }>`
        select id, email, email_key from leads`.execute(db);
      for (const row of rows.rows) {
        const key = emailKey(row.email);
        if (key !== row.email_key)
          await sql`update leads set email_key = ${key} where id = ${row.id}`.execute(db);
      }
    },
  },
  // Whether a lead's call began: an attempt that died before its call goes back to pending when
  // its lease runs out, instead of being held as possibly delivered.
  "003-call-started": {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable("leads").addColumn("call_started_at", "bigint").execute();
      // Leases taken before this column existed: their call may have begun.
      await sql`update leads set call_started_at = last_attempt_at where state = 'sending'`.execute(db);
    },
  },
  // Submissions that look like spam are kept as `spam`, never sent: why, for the person
  // who decides whether to release one. Spam rows are erased by age, so they are found by it.
  "004-spam": {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable("leads").addColumn("spam_signals", "text").execute();
      await leadsIndex(db, "leads_state_received", ["state", "received_at"]);
    },
  },
  // One lead record (decision 049): the visitor's values as one JSON document, so a new field is a
  // row of the field table, never a column.
  "005-lead-record": {
    async up(db: Kysely<unknown>) {
      const [type, build] = engine === "postgres" ? ["jsonb", "jsonb_build_object"] : ["text", "json_object"];
      await sql`alter table leads add column request ${sql.raw(type)}`.execute(db);
      // Each value under its key in the contact schema (company_size: companySize).
      const pairs = REQUEST_COLUMNS.map(
        (column) => sql`${sql.lit(column.replace("_s", "S"))}, ${sql.ref(column)}`,
      );
      await sql`update leads set request = ${sql.raw(build)}(${sql.join(pairs)}) where erased_at is null`.execute(
        db,
      );
      for (const column of REQUEST_COLUMNS) await db.schema.alterTable("leads").dropColumn(column).execute();
    },
  },
});

/** The migrations this database records as run; none when it has no record yet (a new database). */
async function recordedMigrations(db: Kysely<unknown>): Promise<string[]> {
  try {
    const { rows } = await sql<{ name: string }>`select name from kysely_migration`.execute(db);
    return rows.map((row) => row.name);
  } catch {
    return [];
  }
}

export async function migrateToLatest(db: Kysely<unknown>, engine: Engine): Promise<string[]> {
  // Up to date: no write lock taken (a `list` must not wait for another program's write).
  const recorded = await recordedMigrations(db);
  const all = migrations(engine);
  if (Object.keys(all).every((name) => recorded.includes(name))) return [];
  const migrator = new Migrator({ db, provider: { getMigrations: async () => all } });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error;
  return (results ?? [])
    .filter((result) => result.status === "Success")
    .map((result) => result.migrationName);
}
