import type { Env } from "~/lib/env.server";

/**
 * Configurations `npm start` accepts but that are almost certainly not what ops meant (issue 24):
 * one line each, printed once at start (server/production.ts), never a refusal. A new warning is
 * one more `if` here; the test (test/lib/env-warnings.test.ts) and the spawned `npm start`
 * (test/server/start.test.ts) read this list.
 */
export function configWarnings(env: Env): string[] {
  if (env.NODE_ENV !== "production") return [];
  const warnings: string[] = [];
  const site = new URL(env.SITE_URL);
  if (isLoopback(site.hostname)) {
    warnings.push(
      `SITE_URL is ${env.SITE_URL}, an address of this machine: the canonical URL, Open Graph, robots.txt and sitemap.xml send visitors and search engines there. Set the public origin, for example SITE_URL=https://www.example.com.`,
    );
  }
  if (!env.DATABASE_URL) {
    warnings.push(
      `DATABASE_URL is unset: every lead is kept only in ${env.LEADS_DATABASE_FILE} on this machine's disk, lost with it (an ephemeral container disk, a replaced instance) and not shared with other instances. Keep that file on a persistent volume with one instance, or set the shared PostgreSQL database, for example DATABASE_URL=postgres://site:password@db.example.com:5432/site.`,
    );
  }
  if (env.MOCKS) {
    warnings.push(
      "MOCKS is set but npm start ignores it: the mocks exist only under npm run dev, and contact requests go where the startup line says. Unset MOCKS.",
    );
  }
  return warnings;
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
