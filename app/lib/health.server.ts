import { homeDocumentReadiness } from "~/lib/document/document.server";
import { env } from "~/lib/env.server";

export interface HealthReport {
  /** "unavailable" (HTTP 503): this instance cannot serve the home page; take it out of rotation. */
  status: "ok" | "unavailable";
  /** Why it is unavailable, in a few words (the log has the details). */
  reason?: string;
  contactFunction: { configured: boolean; mode: "supabase" | "inbox-file" };
}

/**
 * What a load balancer or uptime check needs to know: whether this instance can serve the page
 * visitors come for, and where contact requests go (from configuration only: the function is
 * never called).
 */
export function healthReport(): HealthReport {
  const configured = Boolean(env.SUPABASE_URL && env.SUPABASE_ANON_KEY);
  const contactFunction = { configured, mode: configured ? ("supabase" as const) : ("inbox-file" as const) };
  const home = homeDocumentReadiness();
  return home.ready
    ? { status: "ok", contactFunction }
    : { status: "unavailable", reason: home.reason, contactFunction };
}
