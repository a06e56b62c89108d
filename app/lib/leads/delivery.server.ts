import { functionCalled, leadAttempted } from "~/lib/leads/events.server";
import type { ContactSink, SendResult } from "~/lib/leads/sink.server";
import type { Alerts } from "~/lib/leads/alerts.server";
import type { Claim, LeadState, LeadStore } from "~/lib/leads/store.server";

/** Who made an attempt: the visitor's own request, the dispatcher, or a person's `leads retry`. */
export type AttemptBy = "visitor" | "dispatcher" | "cli";

export interface Attempt {
  /** Whether the function was called: not when the claim no longer held the lead, or the store failed first. */
  called: boolean;
  /** What the call answered (when not called, why not). */
  sent: SendResult;
  /** The lead's state after the attempt ("unknown" when the store could not record it). */
  state: LeadState | "unknown";
}

/** The answer of a call that was not made. */
const notCalled = (detail: string): SendResult => ({ ok: false, reason: "unknown", detail });

const HAND_BACK_PAUSE_MS = 500;

const LIST = "npm run leads -- list";

/** What a call leaves of its lease, at least, to record its outcome (past it: decision 044). */
const LEASE_SAFETY_MS = 1_000;

/** Retries `releaseUncalled` until the store takes it or the lease is over (its expiry decides). Never throws. */
async function handBackUncalled(store: LeadStore, claim: Claim): Promise<void> {
  const until = performance.now() + store.leaseMs;
  for (;;) {
    try {
      const released = await store.releaseUncalled(claim);
      console.error(JSON.stringify({ event: "lead_attempt_handed_back", leadId: claim.lead.id, released }));
      return;
    } catch {
      if (performance.now() + HAND_BACK_PAUSE_MS > until) return;
      await new Promise((resolve) => setTimeout(resolve, HAND_BACK_PAUSE_MS).unref());
    }
  }
}

/**
 * One attempt at a claimed lead, whoever makes it (docs/lead-store.md): the call, under the lead's
 * id as its Idempotency-Key, only once the store recorded that it begins; then its outcome.
 */
export async function attemptDelivery(
  { store, sink, alerts }: { store: LeadStore; sink: ContactSink; alerts?: Alerts },
  claim: Claim,
  by: AttemptBy,
): Promise<Attempt> {
  let begun: boolean;
  // The renewed lease runs from when the database ran `beginCall`: the call's deadline counts from
  // before it, so a late answer shortens the call instead of letting it outlive the lease (issue 40).
  const askedAt = performance.now();
  try {
    begun = await store.beginCall(claim);
  } catch {
    // The store may yet commit `beginCall` (a paused server wakes): say it never began.
    store.finishBeforeClose(handBackUncalled(store, claim));
    return { called: false, sent: notCalled("the lead store failed before the call"), state: "unknown" };
  }
  if (!begun) {
    // The lease ran out before the call: another attempt may hold the lead now.
    console.error(
      JSON.stringify({ event: "lead_attempt_skipped", leadId: claim.lead.id, by, reason: "lease lost" }),
    );
    const state = await store.get(claim.lead.id).then(
      (lead) => lead?.state ?? "unknown",
      () => "unknown" as const,
    );
    return { called: false, sent: notCalled("another attempt took the lead before the call"), state };
  }
  const started = performance.now();
  const leftMs = store.leaseMs - LEASE_SAFETY_MS - (started - askedAt);
  if (leftMs <= 0) {
    store.finishBeforeClose(handBackUncalled(store, claim));
    return { called: false, sent: notCalled("the lead store answered too late to call"), state: "unknown" };
  }
  // Said before the call, so a caller killed mid-call still leaves who made it (the history test reads it).
  console.log(JSON.stringify({ event: "lead_call", leadId: claim.lead.id, by, attempt: claim.lead.attempts }));
  const sent = await sink.send(claim.lead.request, { idempotencyKey: claim.lead.id, timeoutMs: leftMs });
  functionCalled.publish({
    outcome: sent.ok ? "ok" : sent.reason,
    seconds: (performance.now() - started) / 1000,
  });
  let state: Attempt["state"];
  try {
    state = await store.recordOutcome(claim, sent);
  } catch (error) {
    state = "unknown";
    console.error(
      JSON.stringify({
        event: "lead_outcome_not_recorded",
        leadId: claim.lead.id,
        delivered: sent.ok,
        error: error instanceof Error ? error.message : String(error),
      }),
    );
  }
  leadAttempted.publish({ by, outcome: state });
  const line = {
    event: "lead_attempt",
    leadId: claim.lead.id,
    by,
    attempt: claim.lead.attempts,
    state,
    ...(sent.ok ? {} : { reason: sent.reason, ...(sent.status ? { functionStatus: sent.status } : {}) }),
  };
  if (state === "delivered") console.log(JSON.stringify(line));
  else console.error(JSON.stringify(line));
  if (state === "dead")
    alerts?.notify("dead", `A lead failed ${claim.lead.attempts} times and is held for a person: ${LIST}`, {
      attempts: claim.lead.attempts,
    });
  if (state === "possibly_delivered")
    alerts?.notify(
      "possibly-delivered",
      `A lead may have reached the function without a confirmation and is held: check the mailbox, then ${LIST}`,
    );
  return { called: true, sent, state };
}
