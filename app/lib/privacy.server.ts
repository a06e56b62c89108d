import { contactFormText } from "~/content/contact-form";
import { contactSchema } from "~/lib/contact/schema";
import { type Env, env } from "~/lib/env.server";
import { CACHE_CONTROL } from "~/lib/security/headers.server";
import { CONTACT_FUNCTION } from "~/lib/leads/supabase-sink.server";

/**
 * Every value the privacy page (/privacy, decision 043) states, computed from the code and the
 * configuration that decide it, so that the page cannot say one thing while the site does another.
 * Pure: the route passes the server's `env`; a test passes any.
 */

/**
 * A field of the contact form, as its schema defines it. Copy keyed by it (the privacy page's
 * purpose of each field, the form's labels) must name every field: one added to the schema alone
 * is a type error there.
 */
export type ContactField = keyof typeof contactSchema.shape;

/** The part of the configuration the page depends on. */
export type PrivacyEnv = Pick<
  Env,
  | "SUPABASE_URL"
  | "DATABASE_URL"
  | "LEADS_RETENTION_DAYS"
  | "LEADS_SPAM_RETENTION_DAYS"
  | "GA_MEASUREMENT_ID"
  | "TRUST_PROXY"
  | "RATE_LIMIT_PER_CLIENT"
  | "RATE_LIMIT_WINDOW_SECONDS"
  | "RATE_LIMIT_GLOBAL_PER_MINUTE"
  | "PRIVACY_CONTROLLER_NAME"
  | "PRIVACY_CONTROLLER_ADDRESS"
  | "PRIVACY_CONTACT_EMAIL"
  | "PRIVACY_HOSTING_PROVIDER"
  | "PRIVACY_EMAIL_PROVIDER"
>;

/** A processor: who does something with the data on the agency's behalf. `name` null: not named yet. */
export interface Processor {
  role: "hosting" | "function" | "email" | "analytics";
  name: string | null;
}

export interface PrivacyFacts {
  /** Who is responsible; null: the operator has not published it (configuration unset). */
  controller: { name: string | null; address: string | null; email: string | null };
  /** The form's fields, in the schema's order; required: refused when left empty. */
  fields: { name: ContactField; label: string; required: boolean }[];
  /**
   * "function": SUPABASE_URL is set, each request is sent to `send-contact-email`; "inbox": no
   * function, the site's own lead store is where requests are read (and their only copy).
   */
  delivery: "function" | "inbox";
  /** The function each request is sent to (function mode), by the name the server calls it. */
  contactFunction: string | null;
  retention: {
    /** Days after the function confirmed a request until its personal fields are erased (function mode only). */
    deliveredDays: number;
    /** Days a submission held as spam is kept, then erased. */
    spamDays: number;
  };
  limits: {
    perClient: number;
    windowSeconds: number;
    globalPerMinute: number;
    /** Where the per-client counters live: the shared PostgreSQL table, or the process's memory (SQLite). */
    counters: "database" | "memory";
    /** The address comes from the proxy in front (TRUST_PROXY), not from the connection itself. */
    behindProxy: boolean;
  };
  processors: Processor[];
  /** Google Analytics 4, only when GA_MEASUREMENT_ID is set: the cookies it sets. */
  analytics: { measurementId: string; cookies: string[] } | null;
}

/** Required: the schema refuses the field when it is left empty (the browser's `required` follows the same rule). */
export function isRequired(field: ContactField): boolean {
  return !contactSchema.shape[field].safeParse("").success;
}

/** The form's fields as the schema defines them: adding one to the schema adds it here. */
export function collectedFields(): PrivacyFacts["fields"] {
  return (Object.keys(contactSchema.shape) as ContactField[]).map((name) => ({
    name,
    // The form's own label (the page names the field as the visitor saw it).
    label: contactFormText.fields[name].label,
    required: isRequired(name),
  }));
}

/**
 * GA4's cookies: `_ga`, and `_ga_<container-id>`, the measurement id without its `G-`
 * (Google's documentation of gtag.js cookies; app/components/Analytics.tsx loads gtag.js).
 */
export function analyticsCookies(measurementId: string): string[] {
  return ["_ga", `_ga_${measurementId.replace(/^G-/, "")}`];
}

export function privacyFacts(env: PrivacyEnv): PrivacyFacts {
  const delivery = env.SUPABASE_URL ? "function" : "inbox";
  const processors: Processor[] = [{ role: "hosting", name: env.PRIVACY_HOSTING_PROVIDER ?? null }];
  if (delivery === "function") {
    // supabase-js calls the function on the project SUPABASE_URL names (app/lib/leads/supabase-sink.server.ts).
    processors.push({ role: "function", name: "Supabase" });
    processors.push({ role: "email", name: env.PRIVACY_EMAIL_PROVIDER ?? null });
  }
  if (env.GA_MEASUREMENT_ID) processors.push({ role: "analytics", name: "Google" });
  return {
    controller: {
      name: env.PRIVACY_CONTROLLER_NAME ?? null,
      address: env.PRIVACY_CONTROLLER_ADDRESS ?? null,
      email: env.PRIVACY_CONTACT_EMAIL ?? null,
    },
    fields: collectedFields(),
    delivery,
    contactFunction: delivery === "function" ? CONTACT_FUNCTION : null,
    retention: { deliveredDays: env.LEADS_RETENTION_DAYS, spamDays: env.LEADS_SPAM_RETENTION_DAYS },
    limits: {
      perClient: env.RATE_LIMIT_PER_CLIENT,
      windowSeconds: env.RATE_LIMIT_WINDOW_SECONDS,
      globalPerMinute: env.RATE_LIMIT_GLOBAL_PER_MINUTE,
      // app/lib/leads/services.server.ts hands the limits the PostgreSQL pool only with DATABASE_URL.
      counters: env.DATABASE_URL ? "database" : "memory",
      behindProxy: env.TRUST_PROXY > 0,
    },
    processors,
    analytics: env.GA_MEASUREMENT_ID
      ? { measurementId: env.GA_MEASUREMENT_ID, cookies: analyticsCookies(env.GA_MEASUREMENT_ID) }
      : null,
  };
}

/**
 * What the route needs from the server, from this one module: the route then imports no other
 * `*.server` module, whose empty browser stand-in it would share with the root or the home route
 * (each such stand-in shared becomes one more script for the home page to list and fetch).
 */
export const privacyRoute = {
  facts: (): PrivacyFacts => privacyFacts(env),
  /** The same for every visitor until the next deploy: cached as the home page is. */
  cacheControl: (): string => CACHE_CONTROL.page,
};
