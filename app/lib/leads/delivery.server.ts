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

/**
 * What a call leaves of its lease, at least: its outcome must be known before another process may
 * take the lead for abandoned (issue 40). A process paused for longer than this (a GC pause, a
 * frozen VM) is not stopped by any lease: the Idempotency-Key is the fence (decision 044).
 */
export const LEASE_SAFETY_MS = 1_000;

/**
 * Retries `releaseUncalled` until the store takes it or the claim's lease is over (then the lease's
 * own expiry decides; the lead is held only if a late `beginCall` reached the store). Never throws.
 */
async function handBackUncalled(store: LeadStore, claim: Claim): Promise<void> {
  const { leaseUntil, lastAttemptAt } = claim.lead;
  const leaseMs = leaseUntil !== null && lastAttemptAt !== null ? leaseUntil - lastAttemptAt : 0;
  const until = performance.now() + leaseMs;
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
 * One attempt at a claimed lead, whoever makes it: the call begins only once the store records
 * that it does (and that the claim still holds its lease), with the lead's id as its
 * Idempotency-Key, then its outcome recorded. If the store fails before the call, there is none:
 * the lead is handed back as soon as the store answers (or when its lease runs out). If it cannot
 * record the outcome, the lead is held as possibly delivered when the lease runs out: never sent
 * twice by a machine.
 */
export async function attemptDelivery(
  { store, sink, alerts }: { store: LeadStore; sink: ContactSink; alerts?: Alerts },
  claim: Claim,
  by: AttemptBy,
): Promise<Attempt> {
  let begun: boolean;
  // The lease `beginCall` renews runs from when the database ran it, which is after this moment:
  // the call's deadline counts from here, so an answer that comes late shortens the call instead of
  // letting it outlive the lease (issue 40).
  const askedAt = performance.now();
  try {
    begun = await store.beginCall(claim);
  } catch {
    // The store may yet commit that the call began (a paused server wakes and runs it): say, as
    // soon as it answers, that it never did, so the lead is not held for a call nobody made.
    store.finishBeforeClose(handBackUncalled(store, claim));
    return { called: false, sent: notCalled("the lead store failed before the call"), state: "unknown" };
  }
  if (!begun) {
    // The lease ran out before the call (another attempt may hold the lead now): its outcome is
    // the holder's to record.
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
    // The store answered so late that the lease would end before any call could: none is made.
    store.finishBeforeClose(handBackUncalled(store, claim));
    return { called: false, sent: notCalled("the lead store answered too late to call"), state: "unknown" };
  }
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
  if (state === "dead") {
    alerts?.notify(
      "dead",
      `A lead failed ${claim.lead.attempts} times and is held for a person: npm run leads -- list`,
      {
        attempts: claim.lead.attempts,
      },
    );
  }
  if (state === "possibly_delivered") {
    alerts?.notify(
      "possibly-delivered",
      "A lead may have reached the function without a confirmation and is held: check the mailbox, then npm run leads -- list",
    );
  }
  return { called: true, sent, state };
}
