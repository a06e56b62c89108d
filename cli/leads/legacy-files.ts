import { createHash } from "node:crypto";
import { open, readdir, readFile, rename, stat } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

import { contactFieldNames } from "~/content/contact-fields";
import type { LeadRequest } from "~/lib/leads/sink.server";
import type { NewLead } from "~/lib/leads/database.server";
import { emailKey, fingerprintOf } from "~/lib/leads/fingerprint.server";
import { recordOf } from "~/lib/leads/admit.server";
import type { LeadStore } from "~/lib/leads/store.server";

/**
 * Nothing lost in the upgrade: the files of the release before the lead store (the undelivered
 * file and the inbox file, one JSON object per line) are imported once, by ops running
 * `npm run leads -- import` (issue 40: a step of the upgrade, not work at every start), and each is
 * then renamed (never deleted) to `<file>.imported-<time>`. Importing is idempotent: rows keep
 * the entry's id (a hash of the line for the inbox, whose lines had none), so an import that dies
 * between the insert and the rename imports nothing twice when it is run again.
 *
 * Undelivered file: a request is pending until a later "delivered" marker with its fingerprint;
 * copies of one request become one lead (possibly delivered if any copy was). Inbox file: every
 * request line is an inbox lead. A line that cannot be read is counted and stays in the renamed
 * file for a person.
 */

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The request of a line, or undefined when it cannot be one: a field missing, or holding U+0000,
 * which PostgreSQL refuses in text (one such line failed the whole import at every start; it now
 * stays, counted as unreadable, in the renamed file for a person).
 */
function requestOf(value: unknown): LeadRequest | undefined {
  if (!isObject(value)) return undefined;
  if (contactFieldNames.some((field) => typeof value[field] !== "string" || value[field].includes("\u0000")))
    return undefined;
  return Object.fromEntries(
    contactFieldNames.map((field) => [field, value[field]]),
  ) as unknown as LeadRequest;
}

function parseLines(text: string): { values: Json[]; unreadable: number } {
  const values: Json[] = [];
  let unreadable = 0;
  for (const raw of text.split("\n")) {
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (line.trim() === "") continue;
    try {
      const value: unknown = JSON.parse(line);
      if (isObject(value)) values.push(value);
      else unreadable++;
    } catch {
      unreadable++;
    }
  }
  return { values, unreadable };
}

const time = (iso: unknown, fallback: number) => {
  const ms = typeof iso === "string" ? Date.parse(iso) : Number.NaN;
  return Number.isFinite(ms) ? ms : fallback;
};

/** A stable UUID-shaped id from content, for lines that had none. */
function contentId(text: string): string {
  const hex = createHash("sha256").update(text).digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

const baseRow = (request: LeadRequest) => ({
  ...recordOf(request),
  fingerprint: fingerprintOf(request),
  leaseUntil: null,
  leaseToken: null,
  callStartedAt: null,
  lastAttemptAt: null,
  lastStatus: null,
  deliveredAt: null,
  erasedAt: null,
});

/** The pending requests of an undelivered file, one row per request (the latest copy). */
export function undeliveredRows(text: string, now: number): { rows: NewLead[]; unreadable: number } {
  const { values, unreadable } = parseLines(text);
  const deliveredAfter = new Set<string>();
  const pending = new Map<
    string,
    { entry: Json; request: LeadRequest; possiblyDelivered: boolean; copies: number }
  >();
  let bad = unreadable;
  // Newest first: a marker supersedes every earlier entry with its fingerprint.
  for (const value of [...values].reverse()) {
    if (value.kind === "delivered" && typeof value.fingerprint === "string") {
      deliveredAfter.add(value.fingerprint);
      continue;
    }
    const request = value.kind === "undelivered" ? requestOf(value.request) : undefined;
    if (!request || typeof value.id !== "string") {
      bad++;
      continue;
    }
    const fingerprint = fingerprintOf(request);
    if (
      deliveredAfter.has(fingerprint) ||
      (typeof value.fingerprint === "string" && deliveredAfter.has(value.fingerprint))
    )
      continue;
    const maybe = value.possiblyDelivered === true;
    const known = pending.get(fingerprint);
    if (known) {
      known.possiblyDelivered ||= maybe;
      known.copies++;
    } else pending.set(fingerprint, { entry: value, request, possiblyDelivered: maybe, copies: 1 });
  }
  const rows = [...pending.values()].map(({ entry, request, possiblyDelivered }): NewLead => {
    const failedAt = time(entry.failedAt, now);
    return {
      ...baseRow(request),
      id: String(entry.id).slice(0, 36),
      state: possiblyDelivered ? "possibly_delivered" : "pending",
      receivedAt: failedAt,
      requestId: typeof entry.requestId === "string" ? entry.requestId.slice(0, 128) : null,
      source: "import-undelivered",
      attempts: 1 + (typeof entry.attempts === "number" ? entry.attempts : 0),
      // Due at once: the dispatcher delivers what waited for a person before the upgrade.
      nextAttemptAt: possiblyDelivered ? null : now,
      lastReason:
        typeof entry.lastReason === "string"
          ? entry.lastReason
          : typeof entry.reason === "string"
            ? entry.reason
            : null,
    };
  });
  return { rows: rows.reverse(), unreadable: bad };
}

/** Every request line of an inbox file, as inbox leads. */
export function inboxRows(text: string, now: number): { rows: NewLead[]; unreadable: number } {
  const { values, unreadable } = parseLines(text);
  let bad = unreadable;
  const rows: NewLead[] = [];
  for (const value of values) {
    const request = requestOf(value);
    if (!request) {
      bad++;
      continue;
    }
    rows.push({
      ...baseRow(request),
      id: contentId(JSON.stringify(value)),
      state: "inbox",
      receivedAt: time(value.receivedAt, now),
      requestId: null,
      source: "import-inbox",
      attempts: 0,
      nextAttemptAt: null,
      lastReason: null,
    });
  }
  return { rows, unreadable: bad };
}

export interface ImportReport {
  file: string;
  kind: "undelivered" | "inbox";
  imported: number;
  alreadyThere: number;
  unreadable: number;
  renamedTo: string;
}

async function readIfThere(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, "utf8");
  } catch (error) {
    if ((error as { code?: string }).code === "ENOENT") return undefined;
    throw error;
  }
}

export async function importLegacyFiles(
  store: Pick<LeadStore, "insertImported">,
  files: { undelivered: string; inbox: string },
  now: () => number = Date.now,
): Promise<ImportReport[]> {
  const reports: ImportReport[] = [];
  for (const [kind, file, toRows] of [
    ["undelivered", files.undelivered, undeliveredRows],
    ["inbox", files.inbox, inboxRows],
  ] as const) {
    const text = await readIfThere(file);
    if (text === undefined) continue;
    const { rows, unreadable } = toRows(text, now());
    const imported = await store.insertImported(rows);
    const renamedTo = `${file}.imported-${new Date(now()).toISOString().replace(/[:.]/g, "-")}`;
    await rename(file, renamedTo);
    reports.push({ file, kind, imported, alreadyThere: rows.length - imported, unreadable, renamedTo });
  }
  return reports;
}

/** Characters that may stand next to an address inside it: what must not border a match. */
const ADDRESS_CHAR = "[\\p{L}\\p{N}\\p{M}._%+'!#$&*/=?^`{|}~-]";

/**
 * Whether a line of the previous release's files holds this address (compared as `emailKey` does:
 * the line composed and lower-cased, a JSON line read first so that escapes are undone), as a whole
 * address: forgetting mary@example.com keeps annemary@example.com's lines.
 */
export function lineHoldsAddress(line: string, email: string): boolean {
  let text = line;
  try {
    text = JSON.stringify(JSON.parse(line));
  } catch {
    // Not JSON (a damaged line): read as it is.
  }
  const key = emailKey(email).replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const whole = new RegExp(`(?<!${ADDRESS_CHAR})${key}(?!${ADDRESS_CHAR})`, "u");
  return whole.test(text.normalize("NFC").toLowerCase());
}

export interface ForgottenLines {
  file: string;
  lines: number;
}

/**
 * `forget` in the previous release's files: each legacy file still waiting for its import and each
 * renamed copy (`<file>.imported-<time>`) is rewritten without the lines that hold the address
 * (written beside it, synced, then renamed over it, so a crash leaves the old or the new file).
 */
export async function forgetInLegacyFiles(
  files: { undelivered: string; inbox: string },
  email: string,
): Promise<ForgottenLines[]> {
  const candidates = new Set<string>();
  for (const file of [files.undelivered, files.inbox]) {
    const dir = dirname(file);
    let names: string[];
    try {
      names = await readdir(dir);
    } catch (error) {
      if ((error as { code?: string }).code === "ENOENT") continue;
      throw error;
    }
    const name = basename(file);
    for (const entry of names)
      if (entry === name || entry.startsWith(`${name}.imported-`)) candidates.add(join(dir, entry));
  }
  const forgotten: ForgottenLines[] = [];
  for (const file of [...candidates].sort()) {
    const text = await readIfThere(file);
    if (text === undefined) continue;
    const lines = text.split("\n");
    const kept = lines.filter((line) => !lineHoldsAddress(line, email));
    if (kept.length === lines.length) continue;
    const temporary = `${file}.forget-${process.pid}`;
    const handle = await open(temporary, "w", (await stat(file)).mode & 0o777);
    try {
      await handle.writeFile(kept.join("\n"));
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, file);
    forgotten.push({ file, lines: lines.length - kept.length });
  }
  return forgotten;
}
