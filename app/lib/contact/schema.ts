import * as z from "zod/mini";

import {
  CONTACT_FIELDS,
  type ContactFieldName,
  contactFieldNames,
  type ContactFieldRow,
} from "~/content/contact-fields";
import { contactValidationMessages as messages } from "~/content/contact-form";

/**
 * The contact form's one validator, made from the field table, run by the browser and again by the
 * server. `zod/mini`: it ships in the page's JavaScript.
 */

// None of the characters that let one field carry several recipients (docs/requirements.md,
// section 4); an apostrophe only before the `@` (o'brien@example.com).
const EMAIL = /^[^\s@,;<>"]+@[^\s@,;<>"'.]+(\.[^\s@,;<>"'.]+)+$/;
// What must never reach a one-line field: control characters (Unicode Cc: CR and LF let a name
// smuggle a mail header), the line and paragraph separators, and the bidi overrides and isolates,
// which make a text read differently from what it contains.
const NOT_ONE_LINE = /[\p{Cc}\u2028\u2029\u202A-\u202E\u2066-\u2069]/u;
const BIDI_CONTROL_RUNS = /[\u202A-\u202E\u2066-\u2069]+/gu;
// What a text area must not hold: every control character (C0, DEL and C1) but its line breaks
// and tabs. A person cannot see them, and the stores refuse some (PostgreSQL refuses U+0000 in
// text): a lead holding one would be kept nowhere.
const MESSAGE_CONTROL = /[^\P{Cc}\t\n]/u;
const WEBSITE = /^https?:\/\/[^\s/?#.@]+(\.[^\s/?#.@]+)+([/?#]\S*)?$/i;

/** The check a kind brings beyond length: what an empty optional field always passes. */
const KIND_PATTERN: Partial<
  Record<ContactFieldRow["kind"], (value: string, field: ContactFieldRow) => boolean>
> = {
  email: (value) => EMAIL.test(value),
  url: (value) => WEBSITE.test(value),
  select: (value, field) => field.options!.includes(value),
};

/** A field's checks in the order a visitor is told about them: the first failing one is shown. */
function fieldSchema(field: ContactFieldRow) {
  const all: z.core.$ZodCheck<string>[] = [];
  const said = field.messages;
  if (field.kind === "textarea") {
    // Browsers count a line break as one character against maxLength but send it as CRLF:
    // normalise first so a message the browser allowed is never refused here. A text area keeps
    // its line breaks; bidi controls go, so that what a reader sees is what it says.
    all.push(z.overwrite((value: string) => value.replace(/\r\n?/g, "\n").replace(BIDI_CONTROL_RUNS, "")));
  }
  all.push(z.trim());
  const minLength = field.minLength ?? (field.required ? 1 : 0);
  if (minLength > 0) all.push(z.minLength(minLength, said.missing ?? said.invalid));
  if (field.kind !== "textarea")
    all.push(z.refine((value: string) => !NOT_ONE_LINE.test(value), said.notOneLine));
  if (field.maxLength !== undefined) all.push(z.maxLength(field.maxLength, said.tooLong));
  const pattern = KIND_PATTERN[field.kind];
  if (pattern) all.push(z.refine((value: string) => value === "" || pattern(value, field), said.invalid));
  if (field.kind === "textarea")
    all.push(z.refine((value: string) => !MESSAGE_CONTROL.test(value), said.control));
  return z.string({ error: messages.notText }).check(...all);
}

type FieldSchema = ReturnType<typeof fieldSchema>;

// Keys in the table's order: the order of the function's payload.
export const contactSchema = z.object(
  Object.fromEntries(CONTACT_FIELDS.map((field) => [field.name, fieldSchema(field)])) as Record<
    ContactFieldName,
    FieldSchema
  >,
);

/** What is sent to the function: every key present, optional ones as empty strings. */
export type ContactRequest = z.infer<typeof contactSchema>;

/** What the visitor typed, as text, to put back into the fields after an error. */
export type ContactValues = Record<ContactFieldName, string>;

export type ContactValidation =
  { ok: true; data: ContactRequest } | { ok: false; field: ContactFieldName; message: string };

/**
 * Validates raw form input (or whatever a hand-made request sends). Missing fields count as empty;
 * the first failure in the table's order wins.
 */
export function validateContact(input: Record<string, unknown>): ContactValidation {
  const candidate = Object.fromEntries(contactFieldNames.map((field) => [field, input[field] ?? ""]));
  const result = contactSchema.safeParse(candidate);
  if (result.success) return { ok: true, data: result.data };
  const rank = (issue: z.core.$ZodIssue) => contactFieldNames.indexOf(issue.path[0] as ContactFieldName);
  // Issues within one field come in check order, which the (stable) sort keeps: the earliest
  // field's first issue wins.
  const [first] = result.error.issues.filter((issue) => rank(issue) >= 0).sort((a, b) => rank(a) - rank(b));
  return first
    ? { ok: false, field: first.path[0] as ContactFieldName, message: first.message }
    : { ok: false, field: "name", message: messages.notText };
}

/** The visitor's input as text for refilling the form; anything that is not text comes back empty. */
export function contactValuesFrom(input: Record<string, unknown>): ContactValues {
  const text = (value: unknown) => (typeof value === "string" ? value : "");
  return Object.fromEntries(contactFieldNames.map((field) => [field, text(input[field])])) as ContactValues;
}
