import { describe, expect, it } from "vitest";

import { parseEnv } from "~/lib/env.server";

import { configWarnings, isLoopback } from "../../server/env-warnings";

/**
 * What `npm start` accepts but warns about, one line each (issue 24). No warning at all, MOCKS alone and
 * several at once: through `npm start` itself, test/server/start.test.ts.
 */

/** Who the privacy page names as the controller (decision 043): all three set. */
const CONTROLLER = {
  PRIVACY_CONTROLLER_NAME: "Example Agency LLC",
  PRIVACY_CONTROLLER_ADDRESS: "100 Example Street, Cincinnati, OH 45202, USA",
  PRIVACY_CONTACT_EMAIL: "privacy@example.com",
};

/** What else /privacy needs for a deployment with DATABASE_URL (decision 047): all set. */
const PAGE = {
  PRIVACY_DPO: "none",
  PRIVACY_HOSTING_PROVIDER: "Example Cloud GmbH",
  PRIVACY_HOSTING_REGION: "Frankfurt, Germany (EU)",
  PRIVACY_DATABASE_PROVIDER: "Supabase, Inc.",
  PRIVACY_DATABASE_REGION: "Frankfurt, Germany (EU)",
  PRIVACY_TRANSFER_SAFEGUARDS: "none: every processor keeps the data in the EU",
  PRIVACY_LAST_CHANGED: "2026-12-02",
};

const production = (source: Record<string, string | undefined>) =>
  configWarnings(
    parseEnv({
      NODE_ENV: "production",
      SITE_URL: "https://www.example.com",
      DATABASE_URL: "postgres://site@db.example.com:5432/site",
      ...CONTROLLER,
      ...PAGE,
      ...source,
    }),
  );

describe("configWarnings", () => {
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

  it("SITE_URL, DATABASE_URL, the controller and the page's other settings unset in production: the defaults are localhost, this disk and nobody, so it warns four times", () => {
    expect(configWarnings(parseEnv({ NODE_ENV: "production" }))).toEqual([
      expect.stringMatching(/^SITE_URL is http:\/\/localhost:3000, an address of this machine/),
      expect.stringMatching(
        /^DATABASE_URL is unset: every lead is kept only in \.data\/leads\.sqlite on this machine's disk/,
      ),
      expect.stringMatching(
        /^PRIVACY_CONTROLLER_NAME, PRIVACY_CONTROLLER_ADDRESS and PRIVACY_CONTACT_EMAIL are unset: \/privacy tells visitors/,
      ),
      'PRIVACY_DPO, PRIVACY_HOSTING_PROVIDER, PRIVACY_HOSTING_REGION, PRIVACY_TRANSFER_SAFEGUARDS and PRIVACY_LAST_CHANGED are unset: /privacy marks each as not published where it tells visitors who processes their data, where, on what safeguards, whether there is a data protection officer and when the page last changed (GDPR art. 13). Set them, for example PRIVACY_DPO=none, PRIVACY_HOSTING_PROVIDER="Example Cloud GmbH", PRIVACY_HOSTING_REGION="Frankfurt, Germany (EU)", PRIVACY_TRANSFER_SAFEGUARDS="the European Commission\'s standard contractual clauses in each processor\'s contract" and PRIVACY_LAST_CHANGED=2026-12-02.',
    ]);
  });

  it("the page's settings follow the deployment: the database's provider and region with DATABASE_URL, the function's and the e-mail's with SUPABASE_URL, Google's with GA_MEASUREMENT_ID", () => {
    const unset = { PRIVACY_DATABASE_PROVIDER: undefined, PRIVACY_DATABASE_REGION: undefined };
    expect(production(unset)).toEqual([
      expect.stringMatching(
        /^PRIVACY_DATABASE_PROVIDER and PRIVACY_DATABASE_REGION are unset: \/privacy marks each/,
      ),
    ]);
    // Without DATABASE_URL the leads are on the host's disk: no database provider to name.
    expect(production({ ...unset, DATABASE_URL: undefined })).toEqual([
      expect.stringMatching(/^DATABASE_URL is unset/),
    ]);
    expect(
      production({
        SUPABASE_URL: "https://abcdefghijklmnop.supabase.co",
        SUPABASE_ANON_KEY: "anon",
        GA_MEASUREMENT_ID: "G-ABC123DEF4",
      }),
    ).toEqual([
      'PRIVACY_FUNCTION_REGION, PRIVACY_EMAIL_PROVIDER, PRIVACY_EMAIL_REGION and PRIVACY_ANALYTICS_REGION are unset: /privacy marks each as not published where it tells visitors who processes their data, where, on what safeguards, whether there is a data protection officer and when the page last changed (GDPR art. 13). Set them, for example PRIVACY_FUNCTION_REGION="Frankfurt, Germany (EU)", PRIVACY_EMAIL_PROVIDER="Example Mail Inc.", PRIVACY_EMAIL_REGION="Dublin, Ireland (EU)" and PRIVACY_ANALYTICS_REGION="United States".',
    ]);
  });

  it("the controller's name, address or privacy e-mail unset: one line naming those unset, each with a value that works", () => {
    expect(
      production({
        PRIVACY_CONTROLLER_NAME: undefined,
        PRIVACY_CONTROLLER_ADDRESS: undefined,
        PRIVACY_CONTACT_EMAIL: undefined,
      }),
    ).toEqual([
      'PRIVACY_CONTROLLER_NAME, PRIVACY_CONTROLLER_ADDRESS and PRIVACY_CONTACT_EMAIL are unset: /privacy tells visitors that the operator has not published who is responsible for the data the contact form collects and how to reach them (GDPR art. 13 requires both). Set them, for example PRIVACY_CONTROLLER_NAME="Example Agency LLC", PRIVACY_CONTROLLER_ADDRESS="100 Example Street, Cincinnati, OH 45202, USA" and PRIVACY_CONTACT_EMAIL=privacy@example.com.',
    ]);
    expect(production({ PRIVACY_CONTACT_EMAIL: "" })).toEqual([
      "PRIVACY_CONTACT_EMAIL is unset: /privacy tells visitors that the operator has not published who is responsible for the data the contact form collects and how to reach them (GDPR art. 13 requires both). Set it, for example PRIVACY_CONTACT_EMAIL=privacy@example.com.",
    ]);
    expect(production({ PRIVACY_CONTROLLER_NAME: " ", PRIVACY_CONTROLLER_ADDRESS: undefined })).toEqual([
      expect.stringMatching(
        /^PRIVACY_CONTROLLER_NAME and PRIVACY_CONTROLLER_ADDRESS are unset: .* for example PRIVACY_CONTROLLER_NAME="Example Agency LLC" and PRIVACY_CONTROLLER_ADDRESS="[^"]+"\.$/,
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
