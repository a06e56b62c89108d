import type { Env } from "~/lib/env.server";
import { missingPrivacySettings } from "~/lib/privacy.server";

/** The privacy page's controller: a value that works for each. */
const CONTROLLER_EXAMPLES = {
  PRIVACY_CONTROLLER_NAME: '"Example Agency LLC"',
  PRIVACY_CONTROLLER_ADDRESS: '"100 Example Street, Cincinnati, OH 45202, USA"',
  PRIVACY_CONTACT_EMAIL: "privacy@example.com",
} as const;
const CONTROLLER_VARIABLES = Object.keys(CONTROLLER_EXAMPLES) as (keyof typeof CONTROLLER_EXAMPLES)[];

/** A value that works for each other setting /privacy may need (decision 047). */
const PAGE_EXAMPLES: Partial<Record<keyof Env, string>> = {
  PRIVACY_DPO: "none",
  PRIVACY_HOSTING_PROVIDER: '"Example Cloud GmbH"',
  PRIVACY_HOSTING_REGION: '"Frankfurt, Germany (EU)"',
  PRIVACY_DATABASE_PROVIDER: '"Supabase, Inc."',
  PRIVACY_DATABASE_REGION: '"Frankfurt, Germany (EU)"',
  PRIVACY_FUNCTION_REGION: '"Frankfurt, Germany (EU)"',
  PRIVACY_EMAIL_PROVIDER: '"Example Mail Inc."',
  PRIVACY_EMAIL_REGION: '"Dublin, Ireland (EU)"',
  PRIVACY_ANALYTICS_REGION: '"United States"',
  PRIVACY_TRANSFER_SAFEGUARDS:
    "\"the European Commission's standard contractual clauses in each processor's contract\"",
  PRIVACY_LAST_CHANGED: "2026-12-02",
};

/** "A", "A and B", "A, B and C". */
const list = (names: string[]) =>
  names.length < 2 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;

/**
 * Configurations `npm start` accepts but that are almost certainly not what ops meant: one line
 * each, printed once at start, never a refusal.
 */
export function configWarnings(env: Env): string[] {
  if (env.NODE_ENV !== "production") return [];
  const unset = CONTROLLER_VARIABLES.filter((name) => !env[name]);
  const pageNeeds = missingPrivacySettings(env);
  const warnings = [
    isLoopback(new URL(env.SITE_URL).hostname) &&
      `SITE_URL is ${env.SITE_URL}, an address of this machine: the canonical URL, Open Graph, robots.txt and sitemap.xml send visitors and search engines there. Set the public origin, for example SITE_URL=https://www.example.com.`,
    !env.DATABASE_URL &&
      `DATABASE_URL is unset: every lead is kept only in ${env.LEADS_DATABASE_FILE} on this machine's disk, lost with it (an ephemeral container disk, a replaced instance) and not shared with other instances. Keep that file on a persistent volume with one instance, or set the shared PostgreSQL database, for example DATABASE_URL=postgres://site:password@db.example.com:5432/site.`,
    // GDPR art. 13: whoever collects personal data says who they are (decision 043).
    unset.length > 0 &&
      `${list(unset)} ${unset.length === 1 ? "is" : "are"} unset: /privacy tells visitors that the operator has not published who is responsible for the data the contact form collects and how to reach them (GDPR art. 13 requires both). Set ${unset.length === 1 ? "it" : "them"}, for example ${list(unset.map((name) => `${name}=${CONTROLLER_EXAMPLES[name]}`))}.`,
    // GDPR art. 13: processors, their places, the DPO; the page marks each gap (decision 047).
    pageNeeds.length > 0 &&
      `${list(pageNeeds)} ${pageNeeds.length === 1 ? "is" : "are"} unset: /privacy marks ${pageNeeds.length === 1 ? "it" : "each"} as not published where it tells visitors who processes their data, where, on what safeguards, whether there is a data protection officer and when the page last changed (GDPR art. 13). Set ${pageNeeds.length === 1 ? "it" : "them"}, for example ${list(pageNeeds.map((name) => `${name}=${PAGE_EXAMPLES[name] ?? "..."}`))}.`,
    env.MOCKS &&
      "MOCKS is set but npm start ignores it: the mocks exist only under npm run dev, and contact requests go where the startup line says. Unset MOCKS.",
  ];
  return warnings.filter((warning) => typeof warning === "string");
}

/** localhost (and *.localhost), 127.0.0.0/8, ::1 and IPv4-mapped 127.x, as URL writes them. */
export function isLoopback(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, "");
  return (
    host === "localhost" ||
    host.endsWith(".localhost") ||
    /^127\.\d+\.\d+\.\d+$/.test(host) ||
    host === "[::1]" ||
    /^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/.test(host)
  );
}
