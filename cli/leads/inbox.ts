import { contactFieldNames } from "~/content/contact-form";
import type { ContactRequest } from "~/lib/contact/schema";

/** One line of the inbox file (CONTACT_INBOX_FILE): `{"receivedAt": …, …the eight fields}`. */
export type InboxLine =
  | { line: number; kind: "request"; receivedAt: string; request: ContactRequest }
  | { line: number; kind: "unreadable"; raw: string; problem: string };

export function parseInboxLine(raw: string, line: number): InboxLine {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    return { line, kind: "unreadable", raw, problem: `not JSON (${(error as Error).message})` };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { line, kind: "unreadable", raw, problem: "not a JSON object" };
  }
  const record = value as Record<string, unknown>;
  const missing = contactFieldNames.find((field) => typeof record[field] !== "string");
  if (missing) return { line, kind: "unreadable", raw, problem: `field "${missing}" is not text` };
  const request = Object.fromEntries(
    contactFieldNames.map((field) => [field, record[field]]),
  ) as ContactRequest;
  const receivedAt = typeof record.receivedAt === "string" ? record.receivedAt : "";
  return { line, kind: "request", receivedAt, request };
}

/** Every non-blank line, numbered from 1 as an editor shows them. */
export function parseInbox(text: string): InboxLine[] {
  const lines: InboxLine[] = [];
  text.split("\n").forEach((raw, index) => {
    const content = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (content.trim() !== "") lines.push(parseInboxLine(content, index + 1));
  });
  return lines;
}
