import { data, redirect } from "@remix-run/node";

import {
  type ContactFieldName,
  contactNotices,
  type ContactNoticeText,
  honeypotField,
} from "~/content/contact-form";
import { contactSentLocation, wantsDataAnswer } from "~/lib/contact/answer";
import { readFormBody, MAX_FORM_BYTES } from "~/lib/contact/body.server";
import { createDeliveryLedger, type DeliveryLedger } from "~/lib/contact/delivery-ledger.server";
import {
  type ContactLogger,
  type ContactOutcome,
  logContactOutcome,
  requestIdFor,
} from "~/lib/contact/log.server";
import type { RateLimiter } from "~/lib/contact/rate-limit.server";
import {
  contactValuesFrom,
  type ContactRequest,
  type ContactValues,
  validateContact,
} from "~/lib/contact/schema";
import type { ContactActionData } from "~/lib/contact/types";
import type { ContactSink, SendResult } from "~/lib/contact/sink.server";
import type { KeptIn, UndeliveredQueue } from "~/lib/contact/undelivered.server";
import { fingerprintOf } from "~/lib/contact/undelivered-format.server";

/** What one delivery ended in: the sink's answer, and where a failure was kept. */
export interface Delivery {
  sent: SendResult;
  kept?: KeptIn;
}

type Failure = Delivery & { sent: Extract<SendResult, { ok: false }> };
const isFailure = (delivery: Delivery): delivery is Failure => !delivery.sent.ok;

export interface ContactActionDeps {
  sink: ContactSink;
  /** Keeps what the sink did not confirm, before the visitor is answered (issue 13, decision 024). */
  undelivered?: UndeliveredQueue;
  limiter: RateLimiter;
  /** The client's identity for the per-client limit (undefined: only the global ceiling). */
  clientOf: (request: Request) => string | undefined;
  log?: ContactLogger;
  maxBodyBytes?: number;
  now?: () => number;
  /** Identical requests delivered recently or in flight (decision 026); one per action by default. */
  ledger?: DeliveryLedger<Delivery>;
}

export const ALLOWED_METHODS = "GET, HEAD, POST";

const emptyValues = () => contactValuesFrom({});

export function createContactAction({
  sink,
  undelivered,
  limiter,
  clientOf,
  log = logContactOutcome,
  maxBodyBytes = MAX_FORM_BYTES,
  now = () => performance.now(),
  ledger = createDeliveryLedger<Delivery>((delivery) => delivery.sent.ok),
}: ContactActionDeps) {
  /** Sends once, and records the outcome before anyone is answered: kept on failure, superseded on success. */
  const deliver = async (request: ContactRequest, requestId: string): Promise<Delivery> => {
    const sent = await sink.send(request);
    if (sent.ok) {
      // A kept copy of this same request (an earlier failure) stops being pending, so it is never resent.
      await undelivered?.markDelivered(request);
      return { sent };
    }
    const kept = await undelivered?.keep(request, sent, { sink: sink.mode, requestId });
    return { sent, ...(kept ? { kept } : {}) };
  };

  return async function contactAction(request: Request) {
    const started = now();
    const requestId = requestIdFor(request);
    const answer = (
      status: number,
      payload: ContactActionData,
      outcome: Omit<ContactOutcome, "requestId" | "status" | "durationMs">,
      extraHeaders: Record<string, string> = {},
    ) => {
      log({ requestId, status, durationMs: Math.round(now() - started), ...outcome });
      return data(payload, {
        status,
        headers: { "Cache-Control": "no-store", "X-Request-Id": requestId, ...extraHeaders },
      });
    };
    const error = (
      notice: ContactNoticeText,
      values: ContactValues,
      field?: ContactFieldName,
    ): ContactActionData => ({
      notice: { kind: "error", ...notice },
      values,
      ...(field ? { field } : {}),
    });

    if (request.method !== "POST") {
      return answer(
        405,
        error(contactNotices.unsupported, emptyValues()),
        { result: "method-not-allowed" },
        { Allow: ALLOWED_METHODS },
      );
    }

    const body = await readFormBody(request, maxBodyBytes);
    if (body.kind === "too-large") {
      return answer(
        413,
        error(contactNotices.tooLarge, emptyValues()),
        { result: "too-large" },
        body.drained ? {} : { Connection: "close" },
      );
    }
    if (body.kind === "unsupported-type") {
      return answer(
        415,
        error(contactNotices.unsupported, emptyValues()),
        { result: "unsupported-type" },
        { Accept: "application/x-www-form-urlencoded, multipart/form-data" },
      );
    }
    if (body.kind === "malformed") {
      return answer(400, error(contactNotices.unsupported, emptyValues()), { result: "malformed" });
    }

    // A bot filled the field people never see: it is told "sent", nothing is sent, and it costs
    // real visitors nothing (checked before the limiter, which counts only real submissions).
    const trap = body.fields[honeypotField.name];
    const asData = wantsDataAnswer(body.fields);
    const sentAnswer = (outcome: Omit<ContactOutcome, "requestId" | "status" | "durationMs">) => {
      if (asData) return answer(200, { notice: { kind: "success", ...contactNotices.success } }, outcome);
      // Without JavaScript: POST, then GET a fixed page with the notice, so a reload never posts again.
      log({ requestId, status: 303, durationMs: Math.round(now() - started), ...outcome });
      return redirect(contactSentLocation, {
        status: 303,
        headers: { "Cache-Control": "no-store", "X-Request-Id": requestId },
      });
    };
    if (trap !== undefined && trap !== "") return sentAnswer({ result: "honeypot" });

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

    const failed = ({ sent, kept }: Failure, result: "send-failed" | "timeout" | "duplicate") =>
      answer(sent.reason === "timeout" ? 504 : 502, error(contactNotices.sendFailed, values), {
        result,
        sink: sink.mode,
        reason: sent.reason,
        ...(sent.status !== undefined ? { functionStatus: sent.status } : {}),
        ...(sent.detail ? { detail: sent.detail } : {}),
        ...(kept ? { keptIn: kept } : {}),
      });

    // The same request delivered a moment ago (a reload, a second tab) or being sent right now (a
    // double click): answered with that outcome, never sent twice. Not counted by the limiter.
    const fingerprint = fingerprintOf(validation.data);
    const earlier = ledger.recall(fingerprint);
    if (earlier?.kind === "delivered") return sentAnswer({ result: "duplicate", sink: sink.mode });
    if (earlier?.kind === "in-flight") {
      const shared = await earlier.outcome;
      return isFailure(shared)
        ? failed(shared, "duplicate")
        : sentAnswer({ result: "duplicate", sink: sink.mode });
    }

    const limit = limiter.consume(clientOf(request));
    if (!limit.allowed) {
      return answer(
        429,
        error(contactNotices.tooManyRequests, values),
        { result: "rate-limited", rateLimitScope: limit.scope },
        { "Retry-After": String(limit.retryAfterSeconds) },
      );
    }

    const delivery = await ledger.track(fingerprint, () => deliver(validation.data, requestId));
    if (!isFailure(delivery)) return sentAnswer({ result: "sent", sink: sink.mode });
    return failed(delivery, delivery.sent.reason === "timeout" ? "timeout" : "send-failed");
  };
}
