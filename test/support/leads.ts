import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

import Database from "better-sqlite3";

import type { LeadsTable } from "~/lib/leads/database.server";

/** One row of the lead store as the tests read it: the schema's own row type (times in ms). */
export type LeadRow = LeadsTable;

/**
 * Every lead in an SQLite lead store (LEADS_DATABASE_FILE), oldest first, read as ops would with
 * any SQLite client while the server runs (WAL: the reader never blocks the server). An empty
 * list when the store has not been created yet.
 */
export function readLeads(file: string): LeadRow[] {
  let database: Database.Database;
  try {
    database = new Database(file, { readonly: true, fileMustExist: true });
  } catch {
    return [];
  }
  try {
    const table = database
      .prepare("select name from sqlite_master where type = 'table' and name = 'leads'")
      .get();
    if (!table) return [];
    return database.prepare("select * from leads order by received_at, id").all() as LeadRow[];
  } finally {
    database.close();
  }
}

/** The files under `dir` whose bytes hold `text` (its UTF-8, in any ASCII case): where a lead's data still is. */
export function filesHolding(dir: string, text: string): string[] {
  const needle = Buffer.from(text.toLowerCase(), "utf8").toString("latin1");
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isFile())
    .filter((path) => readFileSync(path).toString("latin1").toLowerCase().includes(needle));
}
