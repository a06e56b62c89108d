import { env } from "~/lib/env.server";
import type { StoreErrorClass } from "~/lib/leads/database.server";
import type { StoreStatus } from "~/lib/leads/store.server";

export interface HealthReport {
  /**
   * Always "ok": a server listens only once its home page is ready (read from the build, or made
   * at start), and a store that is down never stops the page (decision 041).
   */
  status: "ok";
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
  return { status: "ok", contactFunction, ...(leadStore ? { leadStore } : {}) };
}
