import { env } from "~/lib/env.server";

export interface HealthReport {
  status: "ok";
  contactFunction: { configured: boolean; mode: "supabase" | "inbox-file" };
}

/** What a load balancer or uptime check needs to know, read from configuration only (the function is never called). */
export function healthReport(): HealthReport {
  const configured = Boolean(env.SUPABASE_URL && env.SUPABASE_ANON_KEY);
  return { status: "ok", contactFunction: { configured, mode: configured ? "supabase" : "inbox-file" } };
}
