import Database from "better-sqlite3";

/** One row of the lead store as the tests read it (snake_case columns, times in ms). */
export interface LeadRow {
  id: string;
  fingerprint: string;
  state: string;
  received_at: number;
  name: string;
  email: string;
  phone: string;
  company: string;
  website: string;
  company_size: string;
  industry: string;
  message: string;
  request_id: string | null;
  source: string;
  attempts: number;
  next_attempt_at: number | null;
  lease_until: number | null;
  last_reason: string | null;
  last_status: number | null;
  delivered_at: number | null;
  erased_at: number | null;
}

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
