import { describe, expect, it } from "vitest";

import { parseEnv } from "~/lib/env.server";
import { configWarnings, isLoopback } from "~/lib/env-warnings.server";

/** What `npm start` accepts but warns about, one line each (issue 24; spawned in test/server/start.test.ts). */

const production = (source: Record<string, string | undefined>) =>
  configWarnings(
    parseEnv({
      NODE_ENV: "production",
      SITE_URL: "https://www.example.com",
      DATABASE_URL: "postgres://site@db.example.com:5432/site",
      ...source,
    }),
  );

describe("configWarnings", () => {
  it("a public SITE_URL, a shared lead store and no MOCKS: nothing to say", () => {
    expect(production({})).toEqual([]);
  });

  it.each([
    "http://localhost:3000",
    "http://LOCALHOST",
    "https://app.localhost",
    "http://127.0.0.1:3000",
    "http://127.1.2.3",
    "http://[::1]:3000",
    "http://[::ffff:127.0.0.1]",
  ])("SITE_URL=%s: one line naming SITE_URL and a good value", (site) => {
    const warnings = production({ SITE_URL: site });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /^SITE_URL is \S+, an address of this machine: .* for example SITE_URL=https:\/\/www\.example\.com\.$/,
    );
  });

  it("SITE_URL and DATABASE_URL unset in production: the defaults are localhost and this disk, so it warns twice", () => {
    expect(configWarnings(parseEnv({ NODE_ENV: "production" }))).toEqual([
      expect.stringMatching(/^SITE_URL is http:\/\/localhost:3000, an address of this machine/),
      expect.stringMatching(
        /^DATABASE_URL is unset: every lead is kept only in \.data\/leads\.sqlite on this machine's disk/,
      ),
    ]);
  });

  it("no DATABASE_URL: one line saying the leads live only on this disk, and how to share them", () => {
    expect(production({ DATABASE_URL: undefined, LEADS_DATABASE_FILE: "/srv/leads.sqlite" })).toEqual([
      expect.stringMatching(
        /^DATABASE_URL is unset: every lead is kept only in \/srv\/leads\.sqlite on this machine's disk, .* for example DATABASE_URL=postgres:\/\/.+\.$/,
      ),
    ]);
  });

  it("MOCKS=true under npm start: one line saying it is ignored", () => {
    expect(production({ MOCKS: "true" })).toEqual([
      "MOCKS is set but npm start ignores it: the mocks exist only under npm run dev, and contact requests go where the startup line says. Unset MOCKS.",
    ]);
  });

  it("both: two lines", () => {
    expect(production({ MOCKS: "1", SITE_URL: "http://127.0.0.1:3000" })).toHaveLength(2);
  });

  it("development warns about neither (localhost is where a developer's site is)", () => {
    expect(configWarnings(parseEnv({ NODE_ENV: "development", MOCKS: "true" }))).toEqual([]);
  });

  it.each(["www.example.com", "10.0.0.1", "localhost.example.com", "[::2]", "127.example.com"])(
    "%s is not loopback",
    (host) => {
      expect(isLoopback(host)).toBe(false);
    },
  );
});
