import { createHash, randomUUID } from "node:crypto";

import { contactFieldNames } from "~/content/contact-form";
import type { ContactRequest } from "~/lib/contact/schema";
import type { SendFailure } from "~/lib/contact/sink.server";

/**
 * What the undelivered file holds and which of it is still pending, without touching the disk
 * (the locked reads and writes are in `undelivered-file.server`). One JSON line per contact
 * request the function did not confirm, plus "delivered" markers; a request is pending until a
 * marker with its fingerprint follows it. A `.server` module because the fingerprint is a
 * synchronous SHA-256 (node:crypto), which the browser does not have.
 */

export const SEND_FAILURES: readonly SendFailure[] = ["http", "relay", "network", "timeout", "unknown"];

/** A request the function did not confirm, exactly as it was sent, with why and when. */
export interface UndeliveredEntry {
  kind: "undelivered";
  id: string;
  /** Same e-mail (case-insensitive) and message: the same request (see `fingerprintOf`). */
  fingerprint: string;
  failedAt: string;
  reason: SendFailure;
  /** The function's HTTP status, when it answered one. */
  functionStatus?: number;
  /** The function may have run (a timeout, an unreadable answer): check before resending by hand. */
  possiblyDelivered: boolean;
  /** Where it failed: the Supabase function, or the inbox file when that could not be written. */
  sink: "supabase" | "inbox-file";
  /** The submission's request id, as in the `contact_submission` log line. */
  requestId?: string;
  /** The eight validated fields, exactly as sent to the function. */
  request: ContactRequest;
  /** Set by `npm run leads -- retry` when a resend failed too. */
  attempts?: number;
  lastAttemptAt?: string;
  lastReason?: SendFailure;
}

/** A later successful send of the same request: every earlier entry with this fingerprint is no longer pending. */
export interface DeliveredMarker {
  kind: "delivered";
  fingerprint: string;
  deliveredAt: string;
  by: "server" | "leads-cli";
}

export type QueueLine =
  | { line: number; kind: "entry"; entry: UndeliveredEntry }
  | { line: number; kind: "marker"; marker: DeliveredMarker }
  | { line: number; kind: "unreadable"; raw: string; problem: string };

export interface ParsedQueue {
  lines: QueueLine[];
}

/** What makes two submissions the same request: the e-mail (any case) and the message. */
export function fingerprintOf(request: Pick<ContactRequest, "email" | "message">): string {
  return createHash("sha256")
    .update(JSON.stringify([request.email.trim().toLowerCase(), request.message]))
    .digest("hex");
}

export function undeliveredEntry(
  request: ContactRequest,
  failure: { reason: SendFailure; status?: number; possiblyDelivered?: boolean },
  context: { sink: UndeliveredEntry["sink"]; requestId?: string; at: Date },
): UndeliveredEntry {
  return {
    kind: "undelivered",
    id: randomUUID(),
    fingerprint: fingerprintOf(request),
    failedAt: context.at.toISOString(),
    reason: failure.reason,
    ...(failure.status !== undefined ? { functionStatus: failure.status } : {}),
    possiblyDelivered: failure.possiblyDelivered ?? failure.reason === "timeout",
    sink: context.sink,
    ...(context.requestId ? { requestId: context.requestId } : {}),
    request: pickRequest(request),
  };
}

export function deliveredMarker(
  request: Pick<ContactRequest, "email" | "message">,
  by: DeliveredMarker["by"],
  at: Date,
): DeliveredMarker {
  return { kind: "delivered", fingerprint: fingerprintOf(request), deliveredAt: at.toISOString(), by };
}

/** The eight fields in the function's order, nothing else. */
function pickRequest(request: ContactRequest): ContactRequest {
  const { name, email, phone, company, website, companySize, industry, message } = request;
  return { name, email, phone, company, website, companySize, industry, message };
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function entryProblem(value: Record<string, unknown>): string | undefined {
  if (typeof value.id !== "string" || !value.id) return "no id";
  if (typeof value.fingerprint !== "string" || !value.fingerprint) return "no fingerprint";
  if (typeof value.failedAt !== "string") return "no failedAt";
  if (!SEND_FAILURES.includes(value.reason as SendFailure)) return "unknown reason";
  if (!isObject(value.request)) return "no request";
  const request = value.request;
  const missing = contactFieldNames.find((field) => typeof request[field] !== "string");
  return missing ? `request field "${missing}" is not text` : undefined;
}

/** One line of the file, or why it cannot be read (the line is then kept as it is, never dropped). */
export function parseQueueLine(raw: string, line: number): QueueLine {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    return { line, kind: "unreadable", raw, problem: `not JSON (${(error as Error).message})` };
  }
  if (!isObject(value)) return { line, kind: "unreadable", raw, problem: "not a JSON object" };
  if (value.kind === "undelivered") {
    const problem = entryProblem(value);
    if (problem) return { line, kind: "unreadable", raw, problem };
    return { line, kind: "entry", entry: value as unknown as UndeliveredEntry };
  }
  if (value.kind === "delivered" && typeof value.fingerprint === "string") {
    return { line, kind: "marker", marker: value as unknown as DeliveredMarker };
  }
  return {
    line,
    kind: "unreadable",
    raw,
    problem: 'neither an "undelivered" entry nor a "delivered" marker',
  };
}

/** Every non-blank line of the file, numbered from 1 as an editor shows them. */
export function parseQueue(text: string): ParsedQueue {
  const lines: QueueLine[] = [];
  text.split("\n").forEach((raw, index) => {
    const content = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (content.trim() === "") return;
    lines.push(parseQueueLine(content, index + 1));
  });
  return { lines };
}

/**
 * The supersession rule: an entry is pending unless a "delivered" marker with its fingerprint
 * comes after it in the file. Appends are serialized, so "after" means "later".
 */
export function pendingEntries(queue: ParsedQueue): UndeliveredEntry[] {
  const deliveredAfter = new Set<string>();
  const pending: UndeliveredEntry[] = [];
  for (let i = queue.lines.length - 1; i >= 0; i--) {
    const item = queue.lines[i];
    if (item?.kind === "marker") deliveredAfter.add(item.marker.fingerprint);
    else if (item?.kind === "entry" && !deliveredAfter.has(item.entry.fingerprint)) pending.push(item.entry);
  }
  return pending.reverse();
}

export function unreadableLines(queue: ParsedQueue): Extract<QueueLine, { kind: "unreadable" }>[] {
  return queue.lines.filter(
    (item): item is Extract<QueueLine, { kind: "unreadable" }> => item.kind === "unreadable",
  );
}

export interface CompactOptions {
  /** A pending entry to leave out as well (e.g. delivered by the CLI when its marker could not be written). */
  drop?: (entry: UndeliveredEntry) => boolean;
  /** How a pending entry is written back (e.g. with the outcome of a failed resend). */
  update?: (entry: UndeliveredEntry) => UndeliveredEntry;
}

/**
 * The file with only what is still pending: superseded entries and the markers go; pending
 * entries (passed through `update`) and unreadable lines stay, in their order.
 */
export function compactQueue(queue: ParsedQueue, { drop, update }: CompactOptions = {}): string {
  const pending = new Set(pendingEntries(queue).filter((entry) => !drop?.(entry)));
  const kept: string[] = [];
  for (const item of queue.lines) {
    if (item.kind === "unreadable") kept.push(item.raw);
    else if (item.kind === "entry" && pending.has(item.entry)) {
      kept.push(JSON.stringify(update ? update(item.entry) : item.entry));
    }
  }
  return kept.map((line) => `${line}\n`).join("");
}

export function serializeLine(value: UndeliveredEntry | DeliveredMarker): string {
  return `${JSON.stringify(value)}\n`;
}
