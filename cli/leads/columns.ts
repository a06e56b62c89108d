import { CONTACT_FIELDS, type ContactFieldName } from "~/content/contact-fields";
import type { LeadRequest } from "~/lib/leads/sink.server";
import { type Lead, type LeadState, leadStates, OPEN_STATES } from "~/lib/leads/store.server";

import type { CsvColumn } from "./csv";
import type { Column } from "./table";

/* What `npm run leads -- list` and `export` show of a lead. */

export const statusText: Record<LeadState, string> = {
  sending: "sending",
  pending: "pending",
  possibly_delivered: "possibly-delivered",
  dead: "dead",
  delivered: "delivered",
  inbox: "inbox",
  spam: "spam",
};

/** Which leads `list` and `export` show; none set: those still to deliver. */
export interface Selection {
  inbox?: boolean;
  spam?: boolean;
  all?: boolean;
}
export const statesOf = (options: Selection): readonly LeadState[] =>
  options.inbox ? ["inbox"] : options.spam ? ["spam"] : options.all ? leadStates : OPEN_STATES;

/** To the minute: the seconds are in `export --csv`, and the table must fit a terminal. */
export const time = (ms: number | null) =>
  ms === null ? "" : new Date(ms).toISOString().replace("T", " ").slice(0, 16);

/** A note broken into lines of at most `width` columns, at spaces. */
export function wrap(text: string, width: number): string {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
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

type FieldLayout = Omit<Column<Lead>, "value">;

// What gives way to a narrow terminal: the message, the error and every other field first, then
// the company, then the name. The e-mail and the phone, how to reach the person, are never cut:
// where they cannot fit, the leads are listed one record each, field by field.
const FIELD_LAYOUT: Partial<Record<ContactFieldName, FieldLayout>> = {
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

export const leadColumns: Column<Lead>[] = [
  { header: "Status", maxWidth: 18, value: (lead) => statusText[lead.state] },
  { header: "Received (UTC)", maxWidth: 16, value: (lead) => time(lead.receivedAt) },
  { header: "Tries", maxWidth: 5, value: (lead) => String(lead.attempts) },
  { header: "Last error", maxWidth: 12, minWidth: 4, givesWay: 0, value: reasonText },
  ...CONTACT_FIELDS.map(fieldColumn),
];

/** `list --spam`: why each is held in place of tries and errors (a held submission has neither). */
export const spamColumns: Column<Lead>[] = leadColumns.flatMap((column) =>
  column.header === "Tries"
    ? []
    : column.header === "Last error"
      ? [{ ...column, header: "Signals", maxWidth: 36, minWidth: 8 }]
      : [column],
);

export const inboxColumns = leadColumns.filter(
  (column) => !["Tries", "Last error", "Status"].includes(column.header),
);

export const leadCsvColumns: CsvColumn<Lead>[] = [
  { header: "id", value: (lead) => lead.id },
  { header: "status", value: (lead) => statusText[lead.state] },
  { header: "receivedAt", value: (lead) => new Date(lead.receivedAt).toISOString() },
  { header: "attempts", value: (lead) => lead.attempts },
  // A lead held as spam: its signals, the reason it is held (the columns stay those scripts read).
  {
    header: "lastReason",
    value: (lead) => (lead.state === "spam" ? lead.spamSignals.join(" ") : (lead.lastReason ?? "")),
  },
  { header: "functionStatus", value: (lead) => lead.lastStatus ?? "" },
  {
    header: "deliveredAt",
    value: (lead) => (lead.deliveredAt ? new Date(lead.deliveredAt).toISOString() : ""),
  },
  // Every field of the form, in its order, by the name the function receives.
  ...CONTACT_FIELDS.map(({ name }): CsvColumn<Lead> => ({
    header: name,
    value: (lead) => field(lead, name),
  })),
];
