/**
 * The lead's state machine, in one table (issue 40): every state, and for each transition the
 * states it may start from and the states it may end in. The store's statements take their
 * `from` states from here (a claim names the states it may take, never "anything not held"), and
 * the diagram in docs/lead-store.md is made from it (`stateDiagram`, checked by
 * test/docs/lead-states.test.ts). Each transition is one statement in `store.server.ts`, named in
 * `statement`.
 */

export const leadStates = [
  // An attempt under way, leased to one process until `lease_until`; `call_started_at` says whether
  // its call may have begun (a lease that runs out then makes it possibly delivered, else pending).
  "sending",
  // The call failed for sure: the dispatcher tries again at `next_attempt_at`.
  "pending",
  // The outcome of a call is unknown: held for a person, never resent by a machine.
  "possibly_delivered",
  // The last of `maxAttempts` sure failures: held for a person.
  "dead",
  // The function confirmed it.
  "delivered",
  // No function is configured: the store is where the lead is read.
  "inbox",
  // Held as spam (decision 042): never sent; a person's `release` makes it an attempt.
  "spam",
] as const;
export type LeadState = (typeof leadStates)[number];

/** The states in which a lead is still to be delivered (at most one per fingerprint: a unique index). */
export const OPEN_STATES: readonly LeadState[] = ["sending", "pending", "possibly_delivered", "dead"];

/** Where a lead comes from before it exists, and where it goes when it is erased. */
type Outside = "(new)" | "(erased)";

export interface Transition {
  /** The store's method that runs it, as one conditional statement. */
  statement: string;
  /** Who makes it. */
  by: string;
  from: readonly (LeadState | "(new)")[];
  to: readonly (LeadState | "(erased)")[];
  /** Also from `sending` whose lease ran out (its holder died or lost the store). */
  expiredLease?: boolean;
}

export const TRANSITIONS = {
  admit: {
    statement: "admit",
    by: "a visitor's post",
    from: ["(new)"],
    to: ["sending", "inbox", "spam"],
  },
  resend: {
    statement: "admit",
    by: "a visitor's identical post (the open lead's next attempt)",
    from: ["pending", "possibly_delivered", "dead"],
    expiredLease: true,
    to: ["sending", "inbox"],
  },
  beginCall: {
    statement: "beginCall",
    by: "the holder, just before its call (renews the lease)",
    from: ["sending"],
    to: ["sending"],
  },
  recordConfirmed: {
    statement: "recordOutcome",
    // A confirmation is the truth: also when the holder's lease ran out meanwhile and the lead was
    // held, retried or taken by another attempt (which then finds it delivered).
    by: "the caller whose call the function confirmed",
    from: ["sending", "pending", "possibly_delivered", "dead"],
    to: ["delivered"],
  },
  recordFailure: {
    statement: "recordOutcome",
    by: "the holder (its own claim only), with a failed or unknown answer",
    from: ["sending"],
    to: ["pending", "dead", "possibly_delivered"],
  },
  releaseUncalled: {
    statement: "releaseUncalled",
    by: "the holder whose beginCall failed (no call made)",
    from: ["sending"],
    to: ["pending", "possibly_delivered"],
  },
  expireLeases: {
    statement: "expireLeases",
    by: "any dispatcher, for a lease that ran out",
    from: ["sending"],
    to: ["possibly_delivered", "pending"],
  },
  dispatch: {
    statement: "claimDue",
    by: "a dispatcher, when a retry is due",
    from: ["pending"],
    to: ["sending"],
  },
  retry: {
    statement: "claimIfIn",
    by: "a person's `leads retry` (possibly delivered ones only when asked)",
    from: ["pending", "dead", "possibly_delivered"],
    to: ["sending"],
  },
  releaseSpam: {
    statement: "releaseSpam",
    by: "a person's `leads release`",
    from: ["spam"],
    to: ["sending", "inbox"],
  },
  retention: {
    statement: "eraseDeliveredOlderThan",
    by: "the dispatcher, hourly (personal fields only; the row stays)",
    from: ["delivered"],
    to: ["delivered"],
  },
  eraseSpam: {
    statement: "eraseSpamOlderThan",
    by: "the dispatcher, hourly",
    from: ["spam"],
    to: ["(erased)"],
  },
  forget: {
    statement: "forget",
    by: "a person's `leads forget`",
    from: leadStates,
    to: ["(erased)"],
  },
} as const satisfies Record<string, Transition>;

export type TransitionName = keyof typeof TRANSITIONS;

/** The states a transition may start from, for a statement's `where state in (…)`. */
export const fromStates = (name: TransitionName): LeadState[] =>
  (TRANSITIONS[name].from as readonly string[]).filter((state): state is LeadState =>
    (leadStates as readonly string[]).includes(state),
  );

const node = (state: LeadState | Outside) => (state === "(new)" || state === "(erased)" ? "[*]" : state);

/** The table as a Mermaid state diagram (one edge per pair, labelled with its transitions). */
export function stateDiagram(): string {
  const edges = new Map<string, string[]>();
  for (const [name, transition] of Object.entries(TRANSITIONS) as [TransitionName, Transition][]) {
    const sources = [
      ...transition.from,
      ...("expiredLease" in transition && transition.expiredLease ? ["sending" as const] : []),
    ];
    for (const from of sources)
      for (const to of transition.to) {
        const key = `${node(from)} --> ${node(to)}`;
        edges.set(key, [...(edges.get(key) ?? []), name]);
      }
  }
  return ["stateDiagram-v2", ...[...edges].map(([edge, names]) => `    ${edge}: ${names.join(", ")}`)].join(
    "\n",
  );
}
