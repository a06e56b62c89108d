import { appEvent } from "~/lib/events.server";
import type { SendFailure } from "~/lib/leads/sink.server";

/** One call of the function: `ok`, or why it failed, and how long it took. */
export const functionCalled = appEvent<{ outcome: "ok" | SendFailure; seconds: number }>(
  "contact-function-called",
);

/** One attempt to deliver a lead: who made it, and the lead's state after it. */
export const leadAttempted = appEvent<{ by: "visitor" | "dispatcher" | "cli"; outcome: string }>(
  "lead-attempted",
);

/** One dispatcher pass ended: a test's signal that it ran. */
export const dispatcherPassed = appEvent<Record<string, never>>("lead-dispatcher-passed");
