import { copyLastChanged } from "~/content/privacy-changed";
import { CONSENT_KEY } from "~/lib/analytics-consent";
import { SPAM_SIGNALS, type SpamSignal } from "~/lib/contact/spam";
import { type Env, env } from "~/lib/env.server";
import { CACHE_CONTROL } from "~/lib/security/headers.server";
import { CONTACT_FUNCTION } from "~/lib/leads/supabase-sink.server";

/**
 * Every value /privacy states (decision 043), computed from what decides it, so the page cannot
 * say one thing while the site does another.
 */

/** `name` or `region` null: ops have not said yet (the page marks it, `npm start` warns). */
export interface Processor {
  role: "hosting" | "database" | "function" | "email" | "analytics";
  name: string | null;
  region: string | null;
}

export interface PrivacyFacts {
  /** Who is responsible; null: the operator has not published it (configuration unset). */
  controller: { name: string | null; address: string | null; email: string | null };
  /** The data protection officer as ops wrote it, none appointed, or null: not said. */
  dpo: { appointed: true; contact: string } | { appointed: false } | null;
  /** The later of the copy's and the settings' last change (YYYY-MM-DD). */
  lastChanged: string;
  /** On what transfers outside the EU/EEA rest, as ops wrote it; null: not published. */
  transferSafeguards: string | null;
  store: "sqlite" | "postgres";
  /** "inbox": no function; the lead store holds the only copy of each request. */
  delivery: "function" | "inbox";
  contactFunction: string | null;
  retention: {
    /** Days after delivery; in inbox mode, after receipt (a lead is never "delivered" there). */
    deliveredDays: number;
    /** Days after receipt for a request never confirmed (pending, dead, possibly delivered). */
    undeliveredDays: number;
    spamDays: number;
  };
  limits: {
    perClient: number;
    windowSeconds: number;
    globalPerMinute: number;
    /** The shared PostgreSQL table, or the process's memory (SQLite). */
    counters: "database" | "memory";
    /** The address comes from the proxy in front (TRUST_PROXY), not from the connection itself. */
    behindProxy: boolean;
  };
  processors: Processor[];
  /** What the automated spam check looks at (art. 13(2)(f)): the signals the code scores. */
  spamSignals: SpamSignal[];
  /** With GA_MEASUREMENT_ID, after consent: its cookies and the key keeping the visitor's choice. */
  analytics: { measurementId: string; cookies: string[]; choiceKey: string } | null;
}

/** GA4's cookies (Google's gtag.js documentation): `_ga_<container-id>` is the id without `G-`. */
export function analyticsCookies(measurementId: string): string[] {
  return ["_ga", `_ga_${measurementId.replace(/^G-/, "")}`];
}

/** The value `PRIVACY_DPO` takes when the agency has appointed no data protection officer. */
export const NO_DPO = "none";

type Role = Processor["role"];

/** This deployment's processors; `name` where the code decides who it is. */
function processorsOf(env: Env): { role: Role; name?: string }[] {
  return [
    { role: "hosting" },
    // With DATABASE_URL every lead is kept by whoever hosts that PostgreSQL (decision 032).
    ...(env.DATABASE_URL ? [{ role: "database" as const }] : []),
    // supabase-js calls the function on the project SUPABASE_URL names.
    ...(env.SUPABASE_URL
      ? [{ role: "function" as const, name: "Supabase" }, { role: "email" as const }]
      : []),
    ...(env.GA_MEASUREMENT_ID ? [{ role: "analytics" as const, name: "Google" }] : []),
  ];
}

/** Ops name each processor the code cannot (PRIVACY_HOSTING_PROVIDER…) and say where each works. */
const providerSetting = (role: Role) => `PRIVACY_${role.toUpperCase()}_PROVIDER` as keyof Env;
const regionSetting = (role: Role) => `PRIVACY_${role.toUpperCase() as Uppercase<Role>}_REGION` as const;

/**
 * Unset settings this deployment's page needs, in page order: `npm start` warns of them
 * (server/env-warnings.ts, where the controller's three have their own warning).
 */
export function missingPrivacySettings(env: Env): (keyof Env)[] {
  const needed: (keyof Env)[] = ["PRIVACY_DPO"];
  for (const { role, name } of processorsOf(env)) {
    if (!name) needed.push(providerSetting(role));
    needed.push(regionSetting(role));
  }
  needed.push("PRIVACY_TRANSFER_SAFEGUARDS", "PRIVACY_LAST_CHANGED");
  return needed.filter((setting) => !env[setting]);
}

/** The later of two days written YYYY-MM-DD (which sort as text). */
export const laterDay = (a: string, b: string | undefined): string => (b !== undefined && b > a ? b : a);

export function privacyFacts(env: Env): PrivacyFacts {
  const delivery = env.SUPABASE_URL ? "function" : "inbox";
  const processors: Processor[] = processorsOf(env).map(({ role, name }) => ({
    role,
    name: name ?? (env[providerSetting(role)] as string | undefined) ?? null,
    region: env[regionSetting(role)] ?? null,
  }));
  const dpo = env.PRIVACY_DPO;
  return {
    controller: {
      name: env.PRIVACY_CONTROLLER_NAME ?? null,
      address: env.PRIVACY_CONTROLLER_ADDRESS ?? null,
      email: env.PRIVACY_CONTACT_EMAIL ?? null,
    },
    dpo:
      dpo === undefined
        ? null
        : dpo.toLowerCase() === NO_DPO
          ? { appointed: false }
          : { appointed: true, contact: dpo },
    lastChanged: laterDay(copyLastChanged, env.PRIVACY_LAST_CHANGED),
    transferSafeguards: env.PRIVACY_TRANSFER_SAFEGUARDS ?? null,
    store: env.DATABASE_URL ? "postgres" : "sqlite",
    delivery,
    contactFunction: delivery === "function" ? CONTACT_FUNCTION : null,
    retention: {
      deliveredDays: env.LEADS_RETENTION_DAYS,
      undeliveredDays: env.LEADS_UNDELIVERED_RETENTION_DAYS,
      spamDays: env.LEADS_SPAM_RETENTION_DAYS,
    },
    limits: {
      perClient: env.RATE_LIMIT_PER_CLIENT,
      windowSeconds: env.RATE_LIMIT_WINDOW_SECONDS,
      globalPerMinute: env.RATE_LIMIT_GLOBAL_PER_MINUTE,
      // app/lib/leads/services.server.ts hands the limits the PostgreSQL pool only with DATABASE_URL.
      counters: env.DATABASE_URL ? "database" : "memory",
      behindProxy: env.TRUST_PROXY > 0,
    },
    processors,
    spamSignals: Object.keys(SPAM_SIGNALS) as SpamSignal[],
    analytics: env.GA_MEASUREMENT_ID
      ? {
          measurementId: env.GA_MEASUREMENT_ID,
          cookies: analyticsCookies(env.GA_MEASUREMENT_ID),
          choiceKey: CONSENT_KEY,
        }
      : null,
  };
}

/**
 * The route's one `*.server` import: another's empty browser stand-in, shared with the home
 * route, would be one more script for the home page to fetch.
 */
export const privacyRoute = {
  facts: (): PrivacyFacts => privacyFacts(env),
  /** The same for every visitor until the next deploy: cached as the home page is. */
  cacheControl: (): string => CACHE_CONTROL.page,
};
