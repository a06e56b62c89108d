import { env } from "~/lib/env.server";
import { createContactAction } from "~/lib/contact/action.server";
import { createInboxSink } from "~/lib/contact/inbox-sink.server";
import { createRateLimiter } from "~/lib/contact/rate-limit.server";
import type { ContactSink } from "~/lib/contact/sink.server";
import { createSupabaseSink } from "~/lib/contact/supabase-sink.server";
import { clientAddress } from "~/lib/security/proxy.server";

/** The production wiring of the contact action, from the validated environment. */

let sink: ContactSink | undefined;
let action: ReturnType<typeof createContactAction> | undefined;

export function contactSink(): ContactSink {
  sink ??=
    env.SUPABASE_URL && env.SUPABASE_ANON_KEY
      ? createSupabaseSink({
          url: env.SUPABASE_URL,
          anonKey: env.SUPABASE_ANON_KEY,
          timeoutMs: env.CONTACT_FUNCTION_TIMEOUT_MS,
        })
      : createInboxSink(env.CONTACT_INBOX_FILE);
  return sink;
}

/** Waits for pending inbox writes (graceful shutdown); nothing to wait for with Supabase. */
export async function flushContactSink(): Promise<void> {
  if (sink && "flush" in sink && typeof sink.flush === "function") await sink.flush();
}

export function handleContactAction(request: Request) {
  action ??= createContactAction({
    sink: contactSink(),
    limiter: createRateLimiter({
      perClient: env.RATE_LIMIT_PER_CLIENT,
      windowMs: env.RATE_LIMIT_WINDOW_SECONDS * 1000,
      globalPerMinute: env.RATE_LIMIT_GLOBAL_PER_MINUTE,
    }),
    clientOf: (req) => clientAddress(req, env.TRUST_PROXY),
  });
  return action(request);
}
