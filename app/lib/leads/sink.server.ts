import type { ContactFieldName } from "~/content/contact-fields";

/**
 * What a lead asks: a value for each row of the field table. Typed from the table, not the
 * validator: the form depends on the leads, never the reverse (docs/architecture.md).
 */
export type LeadRequest = Record<ContactFieldName, string>;

/** Why a request could not be delivered; never carries the visitor's data. */
export type SendFailure = "timeout" | "http" | "relay" | "network" | "unknown";

export type SendResult =
  | { ok: true }
  | {
      ok: false;
      reason: SendFailure;
      status?: number;
      detail?: string;
      /** The function may have run anyway (no answer in time, or an answer that could not be read). */
      possiblyDelivered?: boolean;
    };

export interface SendOptions {
  /** The lead's id: the same on every attempt, so the function can tell a retry from a new lead. */
  idempotencyKey: string;
  /** At most this long, if less than the sink's own timeout: what is left of the attempt's lease. */
  timeoutMs?: number;
}

/** The Supabase function leads are delivered to (without it, the lead store is the inbox). */
export interface ContactSink {
  readonly mode: "supabase";
  send(request: LeadRequest, options: SendOptions): Promise<SendResult>;
}
