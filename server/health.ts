import { env } from "~/lib/env.server";
import type { StoreErrorClass } from "~/lib/leads/database.server";
import type { StoreStatus } from "~/lib/leads/store.server";

export interface HealthReport {
  /** Always "ok": a server listens only once its home page is ready (decision 041). */
  status: "ok";
  contactFunction: { configured: boolean; mode: "supabase" | "inbox" };
  /**
   * Informative only: the page never needs the store, so it never makes this 503. Why it is down
   * is a class, never the driver's text, which names the database's host and user (public).
   */
  leadStore?: { engine: string; state: string; reason?: StoreErrorClass };
}

/** For a load balancer: can this instance serve the page, and where do requests go (never called). */
export function healthReport(store?: StoreStatus): HealthReport {
  const configured = Boolean(env.SUPABASE_URL && env.SUPABASE_ANON_KEY);
  const contactFunction = { configured, mode: configured ? ("supabase" as const) : ("inbox" as const) };
  // Sent as JSON, which leaves out what is undefined: the store before it exists, a reason when up.
  const reason = store?.state === "unavailable" ? (store.reasonClass ?? "error") : undefined;
  const leadStore = store && { engine: store.engine, state: store.state, reason };
  return { status: "ok", contactFunction, leadStore };
}
