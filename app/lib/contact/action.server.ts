import { data } from "@remix-run/node";

import {
  type ContactFieldName,
  contactNotices,
  type ContactNoticeText,
  honeypotField,
} from "~/content/contact-form";
import { readFormBody, MAX_FORM_BYTES } from "~/lib/contact/body.server";
import {
  type ContactLogger,
  type ContactOutcome,
  logContactOutcome,
  requestIdFor,
} from "~/lib/contact/log.server";
import type { RateLimiter } from "~/lib/contact/rate-limit.server";
import { contactValuesFrom, type ContactValues, validateContact } from "~/lib/contact/schema";
import type { ContactActionData } from "~/lib/contact/types";
import type { ContactSink } from "~/lib/contact/sink.server";
import type { UndeliveredQueue } from "~/lib/contact/undelivered.server";

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
}: ContactActionDeps) {
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

    const limit = limiter.consume(clientOf(request));
    if (!limit.allowed) {
      return answer(
        429,
        error(contactNotices.tooManyRequests, values),
        { result: "rate-limited", rateLimitScope: limit.scope },
        { "Retry-After": String(limit.retryAfterSeconds) },
      );
    }

    const success: ContactActionData = { notice: { kind: "success", ...contactNotices.success } };
    const trap = body.fields[honeypotField.name];
    if (trap !== undefined && trap !== "") {
      // A bot filled the field people never see: it is told "sent", nothing is sent.
      return answer(200, success, { result: "honeypot" });
    }

    const sent = await sink.send(validation.data);
    if (sent.ok) {
      // A kept copy of this same request (an earlier failure) stops being pending, so it is never resent.
      await undelivered?.markDelivered(validation.data);
      return answer(200, success, { result: "sent", sink: sink.mode });
    }
    const kept = await undelivered?.keep(validation.data, sent, { sink: sink.mode, requestId });
    const timeout = sent.reason === "timeout";
    return answer(timeout ? 504 : 502, error(contactNotices.sendFailed, values), {
      result: timeout ? "timeout" : "send-failed",
      sink: sink.mode,
      reason: sent.reason,
      ...(sent.status !== undefined ? { functionStatus: sent.status } : {}),
      ...(sent.detail ? { detail: sent.detail } : {}),
      ...(kept ? { keptIn: kept } : {}),
    });
  };
}
