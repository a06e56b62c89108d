import {
  createClient,
  FunctionsFetchError,
  FunctionsHttpError,
  FunctionsRelayError,
  type SupabaseClient,
} from "@supabase/supabase-js";
import { Agent } from "undici";

import {
  type CallOutcome,
  networkErrorCode,
  outcomeOfNetworkError,
  outcomeOfStatus,
} from "~/lib/leads/call-outcome";
import type { LeadRequest } from "~/lib/leads/sink.server";
import type { ContactSink, SendFailure, SendOptions, SendResult } from "~/lib/leads/sink.server";

export const CONTACT_FUNCTION = "send-contact-email";

/** Past it no connection was made: a sure failure the dispatcher resends, not a lead held. */
export const FUNCTION_CONNECT_TIMEOUT_MS = 3_000;

export interface SupabaseSinkOptions {
  url: string;
  anonKey: string;
  timeoutMs: number;
}

/** The client is made on first use: a bad configuration fails a request, not the start. */
export function createSupabaseSink({ url, anonKey, timeoutMs }: SupabaseSinkOptions): ContactSink {
  let client: SupabaseClient | undefined;
  // Node's own fetch (so MSW's interception in `npm run dev` still sees the call) over undici's
  // Agent with a connect timeout (a connect timeout is UND_ERR_CONNECT_TIMEOUT: call-outcome.ts).
  const agent = new Agent({ connect: { timeout: FUNCTION_CONNECT_TIMEOUT_MS } });
  const getClient = () =>
    (client ??= createClient(url, anonKey, {
      auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
      global: { fetch: (input, init) => fetch(input, { ...init, dispatcher: agent } as RequestInit) },
    }));

  return {
    mode: "supabase",
    async send(
      request: LeadRequest,
      { idempotencyKey, timeoutMs: leftMs }: SendOptions,
    ): Promise<SendResult> {
      const controller = new AbortController();
      let timedOut = false;
      const limitMs = Math.max(0, Math.min(timeoutMs, leftMs ?? timeoutMs));
      const timer = setTimeout(() => {
        timedOut = true;
        controller.abort(new Error(`send-contact-email timed out after ${limitMs} ms`));
      }, limitMs);
      try {
        const { data, error, response } = await getClient().functions.invoke(CONTACT_FUNCTION, {
          body: request,
          headers: { "Idempotency-Key": idempotencyKey },
          signal: controller.signal,
        });
        // Delivered only by the function's own answer, its JSON: a portal's or a proxy's 2xx page
        // says nothing of whether it ran.
        if (!error)
          return isFunctionAnswer(response, data)
            ? { ok: true }
            : failed("unknown", "unknown", { status: response?.status, detail: "not the function's answer" });
        if (timedOut) return failed("timeout", "unknown");
        // The kind of answer decides what becomes of the lead: one table (call-outcome.ts).
        if (error instanceof FunctionsHttpError || error instanceof FunctionsRelayError) {
          const { status, body } = error.context as Response;
          void body?.cancel().catch(() => undefined);
          return failed(error instanceof FunctionsRelayError ? "relay" : "http", outcomeOfStatus(status), {
            status,
          });
        }
        if (error instanceof FunctionsFetchError)
          return failed("network", outcomeOfNetworkError(networkErrorCode(error.context)), {
            detail: describeCause(error.context),
          });
        // E.g. a 2xx whose body is not what its Content-Type says: the function did answer.
        return failed("unknown", "unknown", { detail: describeCause(error) });
      } catch (error) {
        return failed(timedOut ? "timeout" : "unknown", "unknown", { detail: describeCause(error) });
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

/** A failed call, held as possibly delivered when its outcome is unknown. */
const failed = (
  reason: SendFailure,
  outcome: CallOutcome,
  extra: { status?: number | undefined; detail?: string } = {},
): SendResult => ({
  ok: false,
  reason,
  ...extra,
  ...(outcome === "unknown" ? { possiblyDelivered: true } : {}),
});

/** A 2xx the function itself made: JSON (supabase-js parsed it), an object or an array. */
function isFunctionAnswer(response: Response | undefined, data: unknown): boolean {
  const type = response?.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase();
  return type === "application/json" && typeof data === "object" && data !== null;
}

/** An error's class and code only: messages from fetch can contain the URL, never the request. */
function describeCause(error: unknown): string {
  if (!(error instanceof Error)) return typeof error;
  const code = networkErrorCode((error as { cause?: unknown }).cause);
  return code ? `${error.name}: ${code}` : error.name;
}
