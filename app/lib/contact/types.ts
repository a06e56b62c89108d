import type { ContactFieldName } from "~/content/contact-fields";
import type { ContactNoticeText } from "~/content/contact-form";
import type { ContactValues } from "~/lib/contact/schema";

export type ContactNotice = ContactNoticeText & { kind: "success" | "error" };

/** What the contact action answers: a toast with JavaScript, a notice by the form without. */
export interface ContactActionData {
  notice: ContactNotice;
  /** The visitor's values, to refill the form after an error; absent on success (fields cleared). */
  values?: ContactValues;
  /** The field that failed validation, to mark and focus it. */
  field?: ContactFieldName;
}
