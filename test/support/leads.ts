import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

import Database from "better-sqlite3";

import { CONTACT_FIELDS } from "~/content/contact-fields";
import type { ContactRequest } from "~/lib/contact/schema";
import type { LeadsTable } from "~/lib/leads/database.server";

/** `companySize` as its column is named: `company_size`. */
type SnakeCase<Name extends string> = Name extends `${infer Head}${infer Tail}`
  ? `${Head extends Lowercase<Head> ? Head : `_${Lowercase<Head>}`}${SnakeCase<Tail>}`
  : Name;

const snakeCase = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/**
 * One row as ops read it with any SQLite client (times in ms), with each of the visitor's values
 * beside it, empty once retention erased the record.
 */
export type LeadRow = {
  [Key in Exclude<keyof LeadsTable, "request"> as SnakeCase<Key>]-?: LeadsTable[Key];
} & {
  [Key in keyof ContactRequest as SnakeCase<Key>]: string;
} & { request: string | null };

export function withRecordFields(row: Record<string, unknown>): LeadRow {
  const request = typeof row.request === "string" ? (JSON.parse(row.request) as Record<string, string>) : {};
  const values = CONTACT_FIELDS.map(({ name }) => [snakeCase(name), request[name] ?? ""]);
  return { ...row, ...Object.fromEntries(values) } as LeadRow;
}

/** Read as ops would while the server runs (WAL: the reader never blocks the server); oldest first. */
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
    const rows = database.prepare("select * from leads order by received_at, id").all();
    return rows.map((row) => withRecordFields(row as Record<string, unknown>));
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
