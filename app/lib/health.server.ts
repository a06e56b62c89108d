import { homeDocumentReadiness } from "~/lib/document/document.server";
import { env } from "~/lib/env.server";
import type { StoreErrorClass } from "~/lib/leads/database.server";
import type { StoreStatus } from "~/lib/leads/store.server";

export interface HealthReport {
  /** "unavailable" (HTTP 503): this instance cannot serve the home page; take it out of rotation. */
  status: "ok" | "unavailable";
  /** Why it is unavailable, in a few words (the log has the details). */
  reason?: string;
  contactFunction: { configured: boolean; mode: "supabase" | "inbox" };
  /**
   * The lead store's state: informative only; the page never needs it, so it never makes this 503.
   * An unavailable store says why as a class (`refused`, `unreachable`, `timeout`, `full`, `corrupt`), never
   * with the driver's text, which names the database's host, port and user (public endpoint).
   */
  leadStore?: { engine: string; state: string; reason?: StoreErrorClass };
}

/**
 * What a load balancer or uptime check needs to know: whether this instance can serve the page
 * visitors come for, and where contact requests go (from configuration only: the function is
 * never called).
 */
export function healthReport(store?: StoreStatus): HealthReport {
  const configured = Boolean(env.SUPABASE_URL && env.SUPABASE_ANON_KEY);
  const contactFunction = { configured, mode: configured ? ("supabase" as const) : ("inbox" as const) };
  const leadStore = store
    ? {
        engine: store.engine,
        state: store.state,
        ...(store.state === "unavailable" ? { reason: store.reasonClass ?? "error" } : {}),
      }
    : undefined;
  const home = homeDocumentReadiness();
  const common = { contactFunction, ...(leadStore ? { leadStore } : {}) };
  return home.ready ? { status: "ok", ...common } : { status: "unavailable", reason: home.reason, ...common };
}
