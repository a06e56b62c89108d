import { functionCalled, leadAttempted } from "~/lib/leads/events.server";
import type { ContactSink, SendResult } from "~/lib/leads/sink.server";
import type { Claim, LeadState, LeadStore } from "~/lib/leads/store.server";

/** Who made an attempt: the visitor's own request, the dispatcher, or a person's `leads retry`. */
export type AttemptBy = "visitor" | "dispatcher" | "cli";

export interface Attempt {
  /** Not when the claim no longer held the lead, or the store failed first. */
  called: boolean;
  /** What the call answered (when not called, why not). */
  sent: SendResult;
  /** The lead's state after the attempt ("unknown" when the store could not record it). */
  state: LeadState | "unknown";
}

const notCalled = (detail: string): SendResult => ({ ok: false, reason: "unknown", detail });

/** How often a word the store must hear is said again while it is busy or down. */
const AGAIN_MS = 500;

/** What a call leaves of its lease, at least, to record its outcome (past it: decision 044). */
const LEASE_SAFETY_MS = 1_000;

/** `work` tried until the store takes it or the lease ends (past it, its expiry decides). */
async function untilLeaseEnds<T>(work: () => Promise<T>, until: number): Promise<T> {
  for (;;) {
    try {
      return await work();
    } catch (error) {
      if (performance.now() + AGAIN_MS > until) throw error;
      // Not unref'd: the CLI, and a server shutting down, stay until the store has heard it.
      await new Promise((resolve) => setTimeout(resolve, AGAIN_MS));
    }
  }
}

/** Says the call never began until the store takes it or the lease is over. Never throws. */
function handBackUncalled(store: LeadStore, claim: Claim): void {
  const handedBack = untilLeaseEnds(
    () => store.releaseUncalled(claim),
    performance.now() + store.leaseMs,
  ).then((released) =>
    console.error(JSON.stringify({ event: "lead_attempt_handed_back", leadId: claim.lead.id, released })),
  );
  store.finishBeforeClose(handedBack);
}

/**
 * One attempt at a claimed lead (docs/lead-store.md): the call, keyed by the lead's id, only once
 * the store recorded that it begins; then its outcome, said again until the lease ends.
 */
export async function attemptDelivery(
  { store, sink }: { store: LeadStore; sink: ContactSink },
  claim: Claim,
  by: AttemptBy,
): Promise<Attempt> {
  let begun: boolean;
  // The renewed lease runs from when the database ran `beginCall`: the call's deadline counts from
  // before it, so a late answer shortens the call instead of letting it outlive the lease.
  const askedAt = performance.now();
  try {
    begun = await store.beginCall(claim);
  } catch {
    // The store may yet commit `beginCall` (a paused server wakes): say it never began.
    handBackUncalled(store, claim);
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
    handBackUncalled(store, claim);
    return { called: false, sent: notCalled("the lead store answered too late to call"), state: "unknown" };
  }
  // Said before the call, so a caller killed mid-call still leaves who made it.
  console.log(
    JSON.stringify({ event: "lead_call", leadId: claim.lead.id, by, attempt: claim.lead.attempts }),
  );
  const sent = await sink.send(claim.lead.request, { idempotencyKey: claim.lead.id, timeoutMs: leftMs });
  functionCalled.publish({
    outcome: sent.ok ? "ok" : sent.reason,
    seconds: (performance.now() - started) / 1000,
  });
  let state: Attempt["state"];
  try {
    state = await untilLeaseEnds(() => store.recordOutcome(claim, sent), askedAt + store.leaseMs);
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
  return { called: true, sent, state };
}
