import type { ContactRequest } from "~/lib/contact/schema";

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

/** Where a valid contact request goes: the Supabase function, or the local inbox file. */
export interface ContactSink {
  readonly mode: "supabase" | "inbox-file";
  send(request: ContactRequest): Promise<SendResult>;
}
