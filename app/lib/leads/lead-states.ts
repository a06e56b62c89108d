/**
 * The lead's state machine, one table: each transition, the store's statement that runs
 * it and the states it may start from (statements take their `where state in` from here). The
 * diagram in docs/lead-store.md is made from it, and checked (test/docs/lead-states.test.ts).
 */

export const leadStates = [
  "sending", // an attempt under way, leased to one process until `lease_until`
  "pending", // the call failed for sure: the dispatcher tries again at `next_attempt_at`
  "possibly_delivered", // the outcome of a call is unknown: held for a person, never resent by a machine
  "dead", // the last of `maxAttempts` sure failures: held for a person
  "delivered", // the function confirmed it
  "inbox", // no function is configured: the store is where the lead is read
  "spam", // held as spam (decision 042): never sent unless a person releases it
] as const;
export type LeadState = (typeof leadStates)[number];

/** The states in which a lead is still to be delivered (at most one per fingerprint: a unique index). */
export const OPEN_STATES: readonly LeadState[] = ["sending", "pending", "possibly_delivered", "dead"];

/** Where a lead comes from before it exists, and where it goes when it is erased. */
export type Outside = "(new)" | "(erased)";

export interface Transition {
  /** The store's method that runs it, as one conditional statement. */
  statement: string;
  /** Who makes it. */
  by: string;
  from: readonly (LeadState | "(new)")[];
  to: readonly (LeadState | "(erased)")[];
  /** Also from `sending` whose lease ran out (its holder died or lost the store). */
  expiredLease?: boolean;
  /** Each state it starts from is the state it ends in (it changes the row, not its state). */
  inPlace?: boolean;
}

// One row per transition, kept as a table to read down (not wrapped by the formatter).
// prettier-ignore
export const TRANSITIONS = {
  admit:           { statement: "admit",                   from: ["(new)"],                                            to: ["sending", "inbox", "spam"],
                     by: "a visitor's post" },
  resend:          { statement: "admit",                   from: ["pending", "possibly_delivered", "dead"],            to: ["sending", "inbox"], expiredLease: true,
                     by: "a visitor's identical post (the open lead's next attempt)" },
  beginCall:       { statement: "beginCall",               from: ["sending"],                                          to: ["sending"],
                     by: "the holder, just before its call (renews the lease)" },
  recordConfirmed: { statement: "recordOutcome",           from: ["sending", "pending", "possibly_delivered", "dead"], to: ["delivered"],
                     by: "the caller whose call the function confirmed (the truth, whoever holds the lead now)" },
  recordFailure:   { statement: "recordOutcome",           from: ["sending"],                                          to: ["pending", "dead", "possibly_delivered"],
                     by: "the holder (its own claim only), with a failed or unknown answer (a held lead stays held)" },
  releaseUncalled: { statement: "releaseUncalled",         from: ["sending", "possibly_delivered"],                    to: ["pending", "possibly_delivered"],
                     by: "the holder whose beginCall failed or answered too late (no call made), under its own token" },
  expireLeases:    { statement: "expireLeases",            from: ["sending"],                                          to: ["possibly_delivered", "pending"],
                     by: "any dispatcher, for a lease that ran out (a held lead keeps the claim's token)" },
  dispatch:        { statement: "claimDue",                from: ["pending"],                                          to: ["sending"],
                     by: "a dispatcher, when a retry is due" },
  retry:           { statement: "claimIfIn",               from: ["pending", "dead", "possibly_delivered"],            to: ["sending"],
                     by: "a person's `leads retry` (possibly delivered ones only when asked)" },
  resolve:         { statement: "resolve",                 from: ["possibly_delivered"],                               to: ["delivered"],
                     by: "a person's `leads resolve`, who found it arrived (no call)" },
  releaseSpam:     { statement: "releaseSpam",             from: ["spam"],                                             to: ["sending", "inbox"],
                     by: "a person's `leads release`" },
  retention:       { statement: "eraseExpired",            from: ["delivered", "inbox"],                               to: ["delivered", "inbox"], inPlace: true,
                     by: "the dispatcher, hourly, LEADS_RETENTION_DAYS after delivery (inbox: receipt); personal fields only, the row stays" },
  eraseUndelivered:{ statement: "eraseExpired",            from: ["pending", "possibly_delivered", "dead"],            to: ["(erased)"],
                     by: "the dispatcher, hourly, LEADS_UNDELIVERED_RETENTION_DAYS after receipt" },
  eraseSpam:       { statement: "eraseExpired",            from: ["spam"],                                             to: ["(erased)"],
                     by: "the dispatcher, hourly" },
  forget:          { statement: "forget",                  from: leadStates,                                           to: ["(erased)"],
                     by: "a person's `leads forget`" },
} as const satisfies Record<string, Transition>;

export type TransitionName = keyof typeof TRANSITIONS;

/** The states a transition may start from, for a statement's `where state in (…)`. */
export const fromStates = (name: TransitionName): LeadState[] =>
  (TRANSITIONS[name].from as readonly string[]).filter((state): state is LeadState =>
    (leadStates as readonly string[]).includes(state),
  );
