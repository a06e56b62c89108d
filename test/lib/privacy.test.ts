import { describe, expect, it } from "vitest";

import { copyLastChanged } from "~/content/privacy-changed";
import { days, duration, longDate, per, privacyText, spamSignalWords } from "~/content/privacy";
import { parseEnv } from "~/lib/env.server";
import { SPAM_SIGNALS } from "~/lib/contact/spam";
import { analyticsCookies, laterDay, missingPrivacySettings, privacyFacts } from "~/lib/privacy.server";

/** What /privacy states, computed from the configuration (decision 043): any env, no server. */

const facts = (source: Record<string, string | undefined> = {}) =>
  privacyFacts(parseEnv({ NODE_ENV: "production", ...source }));

const WITH_FUNCTION = { SUPABASE_URL: "https://abcdefghijklmnop.supabase.co", SUPABASE_ANON_KEY: "anon" };

describe("privacyFacts", () => {
  it("with nothing configured: no controller, the inbox, the default days and limits, no analytics", () => {
    expect(facts()).toEqual({
      controller: { name: null, address: null, email: null },
      dpo: null,
      lastChanged: copyLastChanged,
      transferSafeguards: null,
      store: "sqlite",
      delivery: "inbox",
      contactFunction: null,
      retention: { deliveredDays: 90, undeliveredDays: 180, spamDays: 30 },
      limits: {
        perClient: 5,
        windowSeconds: 600,
        globalPerMinute: 60,
        counters: "memory",
        behindProxy: false,
      },
      processors: [{ role: "hosting", name: null, region: null }],
      spamSignals: Object.keys(SPAM_SIGNALS),
      analytics: null,
    });
  });

  it("states each configured value as it is set", () => {
    const stated = facts({
      ...WITH_FUNCTION,
      PRIVACY_CONTROLLER_NAME: "Example Agency LLC",
      PRIVACY_CONTROLLER_ADDRESS: "100 Example Street, Cincinnati, OH 45202, USA",
      PRIVACY_CONTACT_EMAIL: "privacy@example.com",
      PRIVACY_HOSTING_PROVIDER: "Example Cloud GmbH",
      PRIVACY_EMAIL_PROVIDER: "Example Mail Inc.",
      PRIVACY_HOSTING_REGION: "Frankfurt, Germany (EU)",
      PRIVACY_DATABASE_PROVIDER: "Supabase, Inc.",
      PRIVACY_DATABASE_REGION: "Stockholm, Sweden (EU)",
      PRIVACY_FUNCTION_REGION: "Paris, France (EU)",
      PRIVACY_EMAIL_REGION: "Virginia, United States",
      PRIVACY_ANALYTICS_REGION: "United States",
      PRIVACY_TRANSFER_SAFEGUARDS: "the EU-US Data Privacy Framework",
      PRIVACY_DPO: "Jane Doe, dpo@example.com",
      PRIVACY_LAST_CHANGED: "2099-01-31",
      LEADS_RETENTION_DAYS: "37",
      LEADS_UNDELIVERED_RETENTION_DAYS: "45",
      LEADS_SPAM_RETENTION_DAYS: "7",
      RATE_LIMIT_PER_CLIENT: "3",
      RATE_LIMIT_WINDOW_SECONDS: "3600",
      RATE_LIMIT_GLOBAL_PER_MINUTE: "20",
      DATABASE_URL: "postgres://site@db.example.com:5432/site",
      TRUST_PROXY: "1",
      GA_MEASUREMENT_ID: "G-ABC123DEF4",
    });
    expect(stated).toMatchObject({
      controller: {
        name: "Example Agency LLC",
        address: "100 Example Street, Cincinnati, OH 45202, USA",
        email: "privacy@example.com",
      },
      dpo: { appointed: true, contact: "Jane Doe, dpo@example.com" },
      lastChanged: "2099-01-31",
      transferSafeguards: "the EU-US Data Privacy Framework",
      store: "postgres",
      delivery: "function",
      contactFunction: "send-contact-email",
      retention: { deliveredDays: 37, undeliveredDays: 45, spamDays: 7 },
      limits: {
        perClient: 3,
        windowSeconds: 3600,
        globalPerMinute: 20,
        counters: "database",
        behindProxy: true,
      },
      processors: [
        { role: "hosting", name: "Example Cloud GmbH", region: "Frankfurt, Germany (EU)" },
        { role: "database", name: "Supabase, Inc.", region: "Stockholm, Sweden (EU)" },
        { role: "function", name: "Supabase", region: "Paris, France (EU)" },
        { role: "email", name: "Example Mail Inc.", region: "Virginia, United States" },
        { role: "analytics", name: "Google", region: "United States" },
      ],
      analytics: {
        measurementId: "G-ABC123DEF4",
        cookies: ["_ga", "_ga_ABC123DEF4"],
        choiceKey: "analytics-consent",
      },
    });
  });

  it("names Supabase and the e-mail provider only when a function is configured; an unnamed one is null, never a made-up name", () => {
    expect(facts(WITH_FUNCTION).processors).toEqual([
      { role: "hosting", name: null, region: null },
      { role: "function", name: "Supabase", region: null },
      { role: "email", name: null, region: null },
    ]);
    expect(facts({ PRIVACY_EMAIL_PROVIDER: "Example Mail Inc." }).processors).toEqual([
      { role: "hosting", name: null, region: null },
    ]);
  });

  it("names the database's provider whenever DATABASE_URL is set (the leads are there, not on the host's disk)", () => {
    const postgres = facts({ DATABASE_URL: "postgres://site@db.example.com:5432/site" });
    expect(postgres.store).toBe("postgres");
    expect(postgres.processors.map((processor) => processor.role)).toEqual(["hosting", "database"]);
    expect(facts({ PRIVACY_DATABASE_PROVIDER: "Supabase, Inc." }).processors.map((p) => p.role)).toEqual([
      "hosting",
    ]);
  });

  it("the DPO: named as written, none appointed (any case of 'none'), or not said", () => {
    expect(facts({ PRIVACY_DPO: "NONE" }).dpo).toEqual({ appointed: false });
    expect(facts({ PRIVACY_DPO: " " }).dpo).toBeNull();
  });

  it("last changed: the later of the copy's day and the day ops give", () => {
    expect(laterDay("2026-12-02", undefined)).toBe("2026-12-02");
    expect(laterDay("2026-12-02", "2026-11-30")).toBe("2026-12-02");
    expect(laterDay("2026-12-02", "2027-01-15")).toBe("2027-01-15");
    expect(facts({ PRIVACY_LAST_CHANGED: "2020-01-01" }).lastChanged).toBe(copyLastChanged);
    expect(longDate("2026-12-02")).toBe("2 December 2026");
  });

  it("the settings the page needs are the deployment's: each processor's name and place, the safeguards, the DPO, the day", () => {
    expect(missingPrivacySettings(parseEnv({ NODE_ENV: "production" }))).toEqual([
      "PRIVACY_DPO",
      "PRIVACY_HOSTING_PROVIDER",
      "PRIVACY_HOSTING_REGION",
      "PRIVACY_TRANSFER_SAFEGUARDS",
      "PRIVACY_LAST_CHANGED",
    ]);
    expect(
      missingPrivacySettings(
        parseEnv({
          NODE_ENV: "production",
          ...WITH_FUNCTION,
          DATABASE_URL: "postgres://site@db.example.com:5432/site",
          GA_MEASUREMENT_ID: "G-ABC123DEF4",
          PRIVACY_DPO: "none",
        }),
      ),
    ).toEqual([
      "PRIVACY_HOSTING_PROVIDER",
      "PRIVACY_HOSTING_REGION",
      "PRIVACY_DATABASE_PROVIDER",
      "PRIVACY_DATABASE_REGION",
      "PRIVACY_FUNCTION_REGION",
      "PRIVACY_EMAIL_PROVIDER",
      "PRIVACY_EMAIL_REGION",
      "PRIVACY_ANALYTICS_REGION",
      "PRIVACY_TRANSFER_SAFEGUARDS",
      "PRIVACY_LAST_CHANGED",
    ]);
  });

  it("a blank controller value counts as unset", () => {
    expect(facts({ PRIVACY_CONTROLLER_NAME: "  " }).controller.name).toBeNull();
  });

  it("GA4's cookies: _ga and _ga_ with the measurement id without its G-", () => {
    expect(analyticsCookies("G-XYZ9876")).toEqual(["_ga", "_ga_XYZ9876"]);
  });
});

describe("the privacy page's copy", () => {
  it("has words for every spam signal the code scores (a signal added there alone fails here)", () => {
    for (const signal of Object.keys(SPAM_SIGNALS))
      expect((spamSignalWords as Record<string, string | undefined>)[signal]?.trim(), signal).toBeTruthy();
  });

  it("says the days and the window it is given", () => {
    expect(days(1)).toBe("1 day");
    expect(days(37)).toBe("37 days");
    expect(duration(600)).toBe("10 minutes");
    expect(duration(3600)).toBe("1 hour");
    expect(duration(7200)).toBe("2 hours");
    expect(duration(90)).toBe("90 seconds");
    expect(duration(60)).toBe("1 minute");
    expect(per(600)).toBe("per 10 minutes");
    expect(per(3600)).toBe("per hour");
  });

  // The rest of what the page says from the facts is read on the page itself (test/http/privacy.test.ts).
  it("with the inbox and no analytics: the summary counts from receipt, three purposes, nothing to withdraw", () => {
    const inbox = facts({ LEADS_RETENTION_DAYS: "41" });
    expect(privacyText.summary.points(inbox).join(" ")).toContain("are erased 41 days after it arrived");
    expect(privacyText.purposes.items(inbox)).toHaveLength(3);
    expect(privacyText.consent.paragraphs(inbox).join(" ")).toContain("nothing to withdraw");
  });
});
