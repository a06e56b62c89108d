import { env } from "~/lib/env.server";
import { publish } from "~/lib/events.server";
import { createContactAction } from "~/lib/contact/action.server";
import { createInboxSink } from "~/lib/contact/inbox-sink.server";
import { logContactOutcome } from "~/lib/contact/log.server";
import { createRateLimiter } from "~/lib/contact/rate-limit.server";
import type { ContactSink } from "~/lib/contact/sink.server";
import { createSupabaseSink } from "~/lib/contact/supabase-sink.server";
import { createUndeliveredQueue, type UndeliveredQueue } from "~/lib/contact/undelivered.server";
import { clientAddress } from "~/lib/security/proxy.server";

/** The production wiring of the contact action, from the validated environment. */

let sink: ContactSink | undefined;
let undelivered: UndeliveredQueue | undefined;
let action: ReturnType<typeof createContactAction> | undefined;

/** Times every call to the function for contact_function_duration_seconds. */
function timed(inner: ContactSink): ContactSink {
  return {
    mode: inner.mode,
    async send(request) {
      const started = performance.now();
      const result = await inner.send(request);
      const seconds = (performance.now() - started) / 1000;
      publish("functionCalled", { outcome: result.ok ? "ok" : result.reason, seconds });
      return result;
    },
  };
}

export function contactSink(): ContactSink {
  sink ??=
    env.SUPABASE_URL && env.SUPABASE_ANON_KEY
      ? timed(
          createSupabaseSink({
            url: env.SUPABASE_URL,
            anonKey: env.SUPABASE_ANON_KEY,
            timeoutMs: env.CONTACT_FUNCTION_TIMEOUT_MS,
          }),
        )
      : createInboxSink(env.CONTACT_INBOX_FILE);
  return sink;
}

export function undeliveredQueue(): UndeliveredQueue {
  undelivered ??= createUndeliveredQueue({ file: env.CONTACT_UNDELIVERED_FILE });
  return undelivered;
}

/**
 * Waits for pending inbox and undelivered writes. remix-serve closes the server on SIGTERM and
 * lets requests in flight finish; both writes happen before a request is answered.
 */
export async function flushContactSink(): Promise<void> {
  if (sink && "flush" in sink && typeof sink.flush === "function") await sink.flush();
  await undelivered?.flush();
}

export async function handleContactAction(request: Request) {
  action ??= createContactAction({
    sink: contactSink(),
    undelivered: undeliveredQueue(),
    limiter: createRateLimiter({
      perClient: env.RATE_LIMIT_PER_CLIENT,
      windowMs: env.RATE_LIMIT_WINDOW_SECONDS * 1000,
      globalPerMinute: env.RATE_LIMIT_GLOBAL_PER_MINUTE,
    }),
    clientOf: (req) => clientAddress(req, env.TRUST_PROXY),
    log: (outcome) => {
      logContactOutcome(outcome);
      publish("contactSubmitted", { result: outcome.result });
    },
  });
  return action(request);
}
