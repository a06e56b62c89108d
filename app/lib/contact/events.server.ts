import { appEvent } from "~/lib/events.server";

/** The outcome of one contact submission, as ops read it (the `result` of its log line). */
export const contactResults = [
  "sent",
  /** The same request was just delivered or is in flight: not sent again (decision 026). */
  "duplicate",
  /** It looked like spam (decision 042): kept in the store as spam, never sent, answered as sent. */
  "spam",
  "invalid",
  "rate-limited",
  "too-large",
  "unsupported-type",
  "malformed",
  "method-not-allowed",
  "send-failed",
  "timeout",
] as const;

export type ContactResult = (typeof contactResults)[number];

export const contactSubmitted = appEvent<{ result: ContactResult }>("contact-submitted");
