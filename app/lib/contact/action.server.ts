import { data, redirect } from "@remix-run/node";

import type { ContactFieldName } from "~/content/contact-fields";
import {
  contactNotices,
  type ContactNoticeText,
  honeypotField,
  typingTimeField,
} from "~/content/contact-form";
import { contactSentLocation, wantsDataAnswer } from "~/lib/contact/answer";
import { readFormBody, MAX_FORM_BYTES } from "~/lib/contact/body.server";
import type { ContactResult } from "~/lib/contact/events.server";
import {
  type ContactLogger,
  type ContactOutcome,
  logContactOutcome,
  requestIdFor,
} from "~/lib/contact/log.server";
import {
  contactValuesFrom,
  type ContactRequest,
  type ContactValues,
  validateContact,
} from "~/lib/contact/schema";
import { spamVerdict, typingMsFrom } from "~/lib/contact/spam";
import type { ContactActionData } from "~/lib/contact/types";
import type { SendResult } from "~/lib/leads/sink.server";
import { attemptDelivery } from "~/lib/leads/delivery.server";
import type { LeadServices } from "~/lib/leads/services.server";
import type { LeadState, LimitDecision } from "~/lib/leads/store.server";

type Failure = Extract<SendResult, { ok: false }>;
type Outcome = Omit<ContactOutcome, "requestId" | "status" | "durationMs">;

export interface ContactActionDeps {
  /** The lead store, the function (or none: the store is the inbox) and the limits. */
  leads: Pick<LeadServices, "store" | "sink" | "limits">;
  log?: ContactLogger;
  /** Where the whole lead goes when the store cannot keep it (nothing calls the function then). */
  lastResort?: (line: string) => void;
  maxBodyBytes?: number;
  now?: () => number;
}

export const ALLOWED_METHODS = "GET, HEAD, POST";

const emptyValues = () => contactValuesFrom({});

/** What an attempt that ended in this state tells the visitor who shares it. */
function failureOf(state: LeadState | "unknown"): Failure {
  return state === "pending" || state === "dead"
    ? { ok: false, reason: "unknown", detail: `lead ${state}` }
    : { ok: false, reason: "timeout", possiblyDelivered: true, detail: `lead ${state}` };
}

export function createContactAction({
  leads,
  log = logContactOutcome,
  lastResort = (line) => console.error(line),
  maxBodyBytes = MAX_FORM_BYTES,
  now = () => performance.now(),
}: ContactActionDeps) {
  const { store, sink, limits } = leads;
  const sinkName = sink ? sink.mode : "inbox";

  /**
   * The store could not say what it holds: the function is not called. The store may hold this
   * lead already under its own key (the dispatcher sends it when the store is back); a call under
   * any other key would deliver it twice (decision 032). The whole lead goes to the log, the last
   * place it can be recovered from, and the visitor is told it was not sent.
   */
  const withoutStore = (request: ContactRequest, requestId: string, storeError: string): Failure => {
    lastResort(JSON.stringify({ event: "contact_lead_not_saved", requestId, storeError, lead: request }));
    return { ok: false, reason: "unknown", detail: "lead store unavailable" };
  };

  /** @param client the per-client limit's key; undefined: only the global ceiling applies. */
  return async function contactAction(request: Request, client?: string) {
    const started = now();
    const requestId = requestIdFor(request);
    /** Logs the outcome; what the answer carries: its status, never cached, with the request's id. */
    const logged = (status: number, outcome: Outcome, extraHeaders: Record<string, string> = {}) => {
      log({ requestId, status, durationMs: Math.round(now() - started), ...outcome });
      return { status, headers: { "Cache-Control": "no-store", "X-Request-Id": requestId, ...extraHeaders } };
    };
    const answer = (
      status: number,
      payload: ContactActionData,
      outcome: Outcome,
      extraHeaders?: Record<string, string>,
    ) => data(payload, logged(status, outcome, extraHeaders));
    const error = (
      notice: ContactNoticeText,
      values: ContactValues,
      field?: ContactFieldName,
    ): ContactActionData => ({
      notice: { kind: "error", ...notice },
      values,
      ...(field ? { field } : {}),
    });

    /** Refused before its fields are read: the form comes back empty. */
    const refused = (
      status: number,
      notice: ContactNoticeText,
      result: ContactResult,
      extraHeaders?: Record<string, string>,
    ) => answer(status, error(notice, emptyValues()), { result }, extraHeaders);

    if (request.method !== "POST")
      return refused(405, contactNotices.unsupported, "method-not-allowed", { Allow: ALLOWED_METHODS });

    const body = await readFormBody(request, maxBodyBytes);
    if (body.kind === "too-large")
      return refused(413, contactNotices.tooLarge, "too-large", body.drained ? {} : { Connection: "close" });
    if (body.kind === "unsupported-type")
      return refused(415, contactNotices.unsupported, "unsupported-type", {
        Accept: "application/x-www-form-urlencoded, multipart/form-data",
      });
    if (body.kind === "malformed") return refused(400, contactNotices.unsupported, "malformed");

    const asData = wantsDataAnswer(body.fields);
    const sentAnswer = (outcome: Outcome) => {
      if (asData) return answer(200, { notice: { kind: "success", ...contactNotices.success } }, outcome);
      // Without JavaScript: POST, then GET a fixed page with the notice, so a reload never posts again.
      return redirect(contactSentLocation, logged(303, outcome));
    };

    const values = contactValuesFrom(body.fields);
    const validation = validateContact(body.fields);
    if (!validation.ok) {
      // Not counted by the rate limiter: a visitor fixing a typo must never be locked out.
      return answer(
        400,
        error(
          { title: contactNotices.validationTitle, description: validation.message },
          values,
          validation.field,
        ),
        { result: "invalid", field: validation.field },
      );
    }

    const failed = (
      sent: Failure,
      keptIn: "store" | "stderr",
      result: "send-failed" | "timeout" | "duplicate" = sent.reason === "timeout" ? "timeout" : "send-failed",
    ) =>
      answer(sent.reason === "timeout" ? 504 : 502, error(contactNotices.sendFailed, values), {
        result,
        sink: sinkName,
        reason: sent.reason,
        ...(sent.status !== undefined ? { functionStatus: sent.status } : {}),
        ...(sent.detail ? { detail: sent.detail } : {}),
        keptIn,
      });
    const rateLimited = (limit: Extract<LimitDecision, { allowed: false }>) =>
      answer(
        429,
        error(contactNotices.tooManyRequests, values),
        { result: "rate-limited", rateLimitScope: limit.scope },
        { "Retry-After": String(limit.retryAfterSeconds) },
      );

    // Spam is kept but never sent, and answered like any success (decision 042); limited apart, so
    // a spam flood never uses up a real visitor's limit.
    const honeypot = body.fields[honeypotField.name];
    const verdict = spamVerdict(validation.data, {
      honeypot: typeof honeypot === "string" ? honeypot : "",
      typingMs: typingMsFrom(body.fields[typingTimeField.name]),
    });

    const kind = verdict.spam ? "spam" : "lead";
    // Committed before anything else happens (decision 032): a new lead, this attempt at an open
    // one, or the answer that an identical lead was just delivered or is being sent right now.
    let admission;
    // The limit's answer, once asked: a store that fails after asking must not charge a second point.
    let charged: Awaited<ReturnType<typeof limits.consume>> | undefined;
    try {
      admission = await store.admit(validation.data, {
        mode: sink ? "function" : "inbox",
        requestId,
        allow: async () => (charged = await limits.consume(client, kind)),
        ...(verdict.spam ? { spam: verdict.signals } : {}),
      });
    } catch (storeError) {
      const limit = charged ?? (await limits.consume(client, kind));
      if (!limit.allowed) return rateLimited(limit);
      const reason = storeError instanceof Error ? storeError.message : String(storeError);
      return failed(withoutStore(validation.data, requestId, reason), "stderr");
    }

    switch (admission.kind) {
      case "duplicate":
        return sentAnswer({ result: "duplicate", sink: sinkName });
      case "limited":
        return rateLimited(admission.limit);
      case "stored":
        if (verdict.spam) return sentAnswer({ result: "spam", spamSignals: verdict.signals });
        return sentAnswer({ result: "sent", sink: sinkName });
      case "in-flight": {
        // Another request (a double click, another instance) is sending it: its outcome is ours.
        const state = await store.awaitOutcome(admission.id, store.leaseMs).catch(() => "unknown" as const);
        if (state === "delivered") return sentAnswer({ result: "duplicate", sink: sinkName });
        return failed(failureOf(state), "store", "duplicate");
      }
      case "claimed": {
        if (!sink) throw new Error("a lead was claimed for sending without a function");
        const { sent } = await attemptDelivery({ store, sink }, admission.claim, "visitor");
        if (sent.ok) return sentAnswer({ result: "sent", sink: sinkName });
        return failed(sent, "store");
      }
    }
  };
}
