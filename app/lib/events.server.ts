import { channel } from "node:diagnostics_channel";

import type { SendFailure } from "~/lib/leads/sink.server";

/**
 * What the app tells whoever observes it: the contact action and the document step publish, the
 * metrics subscribe (`~/lib/metrics.server`), and neither imports the other. Node's diagnostics
 * channels are process-wide by name, so the server bundle hears what the Remix build publishes
 * although each carries its own copy of this module. Publishing with no subscriber costs nothing.
 * Payloads carry values from fixed sets only: never anything a visitor typed.
 */

/** The outcome of one contact submission, as ops read it (the `result` of its log line). */
export const contactResults = [
  "sent",
  /** The same request was delivered in the last 10 minutes or was in flight: not sent again (decision 026). */
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

export interface ContactSubmitted {
  result: ContactResult;
}

export interface FunctionCalled {
  /** `ok`, or why the call failed. */
  outcome: "ok" | SendFailure;
  seconds: number;
}

export interface LeadAttempted {
  /** Who made the attempt: the visitor's request, the dispatcher, or `npm run leads -- retry`. */
  by: "visitor" | "dispatcher" | "cli";
  /** The lead's state after it (`unknown`: the store could not record it). */
  outcome: string;
}

export interface DocumentServed {
  status: number;
  /** Made at build and served as a file (the home page and its success variant), or rendered for the request. */
  source: "prerendered" | "rendered";
}

const channels = {
  contactSubmitted: channel("site:contact-submitted"),
  functionCalled: channel("site:contact-function-called"),
  leadAttempted: channel("site:lead-attempted"),
  documentServed: channel("site:document-served"),
};

interface EventPayloads {
  contactSubmitted: ContactSubmitted;
  functionCalled: FunctionCalled;
  leadAttempted: LeadAttempted;
  documentServed: DocumentServed;
}

export type EventName = keyof EventPayloads;

export function publish<Name extends EventName>(name: Name, payload: EventPayloads[Name]): void {
  const target = channels[name];
  if (target.hasSubscribers) target.publish(payload);
}

/** Calls `listener` for every event of that name published in this process. Returns an unsubscribe. */
export function subscribe<Name extends EventName>(
  name: Name,
  listener: (payload: EventPayloads[Name]) => void,
): () => void {
  const handler = (message: unknown) => listener(message as EventPayloads[Name]);
  channels[name].subscribe(handler);
  return () => channels[name].unsubscribe(handler);
}
