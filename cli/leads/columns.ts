import { CONTACT_FIELDS, type ContactFieldName } from "~/content/contact-fields";
import type { LeadRequest } from "~/lib/leads/sink.server";
import { type Lead, type LeadState, leadStates, OPEN_STATES } from "~/lib/leads/store.server";

import type { CsvColumn } from "./csv";
import type { Column } from "./table";

/* What `npm run leads -- list` and `export` show of a lead. */

/** A state as the CLI writes it: `possibly-delivered`, the others as they are. */
export const statusText = (state: LeadState) => state.replace("_", "-");

/** Which leads `list` and `export` show; none set: those still to deliver. */
export interface Selection {
  inbox?: boolean;
  spam?: boolean;
  all?: boolean;
}

/** The time in ISO 8601, UTC (`export`); empty for none. */
const iso = (ms: number | null) => (ms === null ? "" : new Date(ms).toISOString());

/** To the minute: the seconds are in `export --csv`, and the table must fit a terminal. */
const time = (ms: number | null) => iso(ms).replace("T", " ").slice(0, 16);

/** Words in lines of at most `width` columns where they allow: a word (a store's path) is never cut. */
export function wrap(words: string[], width: number): string {
  const lines: string[] = [];
  for (const word of words) {
    const line = lines.at(-1);
    if (line && line.length + 1 + word.length <= width) lines[lines.length - 1] = `${line} ${word}`;
    else lines.push(word);
  }
  return lines.join("\n");
}

function reasonText(lead: Lead): string {
  // Why a submission is held as spam: its signals (decision 042).
  if (lead.state === "spam") return lead.spamSignals.join(", ");
  if (!lead.lastReason) return "";
  return lead.lastStatus ? `${lead.lastReason} ${lead.lastStatus}` : lead.lastReason;
}

/** One of the visitor's values: empty once retention erased the lead's record. */
const field = (lead: Lead, name: keyof LeadRequest) => lead.request?.[name] ?? "";

// What gives way to a narrow terminal: the message, the error and every other field first, then
// the company, then the name. The e-mail and the phone, how to reach the person, are never cut:
// where they cannot fit, the leads are listed one record each, field by field.
const FIELD_LAYOUT: Partial<Record<ContactFieldName, Omit<Column<Lead>, "value">>> = {
  name: { header: "Name", maxWidth: 24, minWidth: 6, givesWay: 2 },
  email: { header: "E-mail", maxWidth: 32, whole: true },
  phone: { header: "Phone", maxWidth: 18, whole: true },
  company: { header: "Company", maxWidth: 20, minWidth: 4, givesWay: 1 },
  message: { header: "Message", maxWidth: 48, minWidth: 8, cut: "words", givesWay: 0 },
};

/** A field with no layout of its own (a row added to the field table): its label, narrowed first. */
const fieldColumn = ({ name, label }: (typeof CONTACT_FIELDS)[number]): Column<Lead> => ({
  ...(FIELD_LAYOUT[name] ?? { header: label, maxWidth: 20, minWidth: 4, givesWay: 0 }),
  value: (lead) => field(lead, name),
});

// The columns besides the form's fields: how the lead fares, or why it is held as spam.
const { status, received, tries, lastError, signals } = {
  status: { header: "Status", maxWidth: 18, value: (lead) => statusText(lead.state) },
  received: { header: "Received (UTC)", maxWidth: 16, value: (lead) => time(lead.receivedAt) },
  tries: { header: "Tries", maxWidth: 5, value: (lead) => String(lead.attempts) },
  lastError: { header: "Last error", maxWidth: 12, minWidth: 4, givesWay: 0, value: reasonText },
  signals: { header: "Signals", maxWidth: 36, minWidth: 8, givesWay: 0, value: reasonText },
} satisfies Record<string, Column<Lead>>;
const fields = CONTACT_FIELDS.map(fieldColumn);
const leadColumns = [status, received, tries, lastError, ...fields];

/** What `list` and `export` take for each selection: its states, how `list` counts them, its table. */
interface Shown {
  states: readonly LeadState[];
  one: string;
  many: string;
  columns: Column<Lead>[];
}
const SHOWN: Record<keyof Selection | "open", Shown> = {
  inbox: { states: ["inbox"], one: "inbox lead", many: "inbox leads", columns: [received, ...fields] },
  // A held submission has no tries nor errors: why it is held instead.
  spam: {
    states: ["spam"],
    one: "lead held as spam",
    many: "leads held as spam",
    columns: [status, received, signals, ...fields],
  },
  all: { states: leadStates, one: "lead", many: "leads", columns: leadColumns },
  open: { states: OPEN_STATES, one: "lead to deliver", many: "leads to deliver", columns: leadColumns },
};

export const shown = (options: Selection): Shown =>
  SHOWN[options.inbox ? "inbox" : options.spam ? "spam" : options.all ? "all" : "open"];

export const leadCsvColumns: CsvColumn<Lead>[] = [
  { header: "id", value: (lead) => lead.id },
  { header: "status", value: (lead) => statusText(lead.state) },
  { header: "receivedAt", value: (lead) => iso(lead.receivedAt) },
  { header: "attempts", value: (lead) => lead.attempts },
  // A lead held as spam: its signals, the reason it is held (the columns stay those scripts read).
  {
    header: "lastReason",
    value: (lead) => (lead.state === "spam" ? lead.spamSignals.join(" ") : (lead.lastReason ?? "")),
  },
  { header: "functionStatus", value: (lead) => lead.lastStatus ?? "" },
  { header: "deliveredAt", value: (lead) => iso(lead.deliveredAt) },
  // Every field of the form, in its order, by the name the function receives.
  ...CONTACT_FIELDS.map(({ name }) => ({ header: name, value: (lead: Lead) => field(lead, name) })),
];
