import type { LeadRequest } from "~/lib/leads/sink.server";

import { contactRequest } from "../../support/contact-request";

/**
 * Texts the requirements fix to the letter (docs/requirements.md, sections 4 and 5). Tests quote
 * them here instead of importing the app's content, so a wrong text in the app fails a test.
 */
export const VALIDATION_TITLE = "Validation Error";
export const VALIDATION = {
  name: "Please enter your full name.",
  email: "Please enter a valid email address.",
  website: "Please enter a valid website URL (e.g., https://example.com)",
  message: "Please provide a detailed message (at least 10 characters).",
} as const;
export const SUCCESS = {
  title: "Message Sent Successfully!",
  text: "We'll get back to you within 24 hours to discuss your automation needs.",
} as const;
export const SEND_ERROR = {
  title: "Error Sending Message",
  text: "There was a problem sending your message. Please try again or email us directly.",
} as const;
export const SUBMIT_LABEL = "Send Message";
export const SUBMITTING_LABEL = "Sending Message...";

export const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];

export const VALID_CONTACT: ContactValues = contactRequest({
  name: "Jane Smith",
  email: "jane@acme-test.com",
  phone: "(513) 555-0100",
  company: "Acme Inc.",
  website: "https://acme-test.com",
  companySize: "11-50",
  industry: "Logistics",
  message: "We spend 30 hours a week retyping orders from e-mail into our ERP.",
});
export type ContactValues = LeadRequest;

let contactSerial = 0;
/**
 * Unique per call: the server does not resend a request identical to one delivered in the last 10
 * minutes (decision 026). The message is short because the cross-engine tests type it key by key.
 */
export function uniqueContact(): ContactValues {
  return { ...VALID_CONTACT, message: `Case ${++contactSerial}: automate our orders.` };
}
