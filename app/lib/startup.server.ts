import { env } from "~/lib/env.server";

let logged = false;

/** One line at start saying where contact requests go, so ops never guess. */
export function logStartup(): void {
  if (logged) return;
  logged = true;
  const sink = env.SUPABASE_URL
    ? { mode: "supabase", target: `${new URL(env.SUPABASE_URL).origin}/functions/v1/send-contact-email` }
    : { mode: "inbox-file", target: env.CONTACT_INBOX_FILE };
  console.log(JSON.stringify({ event: "startup", contactSink: sink.mode, target: sink.target, trustProxy: env.TRUST_PROXY }));
}
