import { describe, expect, it } from "vitest";

import { contactFormText } from "~/content/contact-form";
import { days, duration, fieldPurposes, per, privacyText } from "~/content/privacy";
import { contactSchema } from "~/lib/contact/schema";
import { parseEnv } from "~/lib/env.server";
import { analyticsCookies, privacyFacts } from "~/lib/privacy.server";

/** What /privacy states, computed from the configuration (decision 043): any env, no server. */

const facts = (source: Record<string, string | undefined> = {}) =>
  privacyFacts(parseEnv({ NODE_ENV: "production", ...source }));

const WITH_FUNCTION = { SUPABASE_URL: "https://abcdefghijklmnop.supabase.co", SUPABASE_ANON_KEY: "anon" };

describe("privacyFacts", () => {
  it("with nothing configured: no controller, the inbox, the default days and limits, no analytics", () => {
    expect(facts()).toEqual({
      controller: { name: null, address: null, email: null },
      fields: expect.any(Array),
      delivery: "inbox",
      contactFunction: null,
      retention: { deliveredDays: 90, spamDays: 30 },
      limits: {
        perClient: 5,
        windowSeconds: 600,
        globalPerMinute: 60,
        counters: "memory",
        behindProxy: false,
      },
      processors: [{ role: "hosting", name: null }],
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
      LEADS_RETENTION_DAYS: "37",
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
      delivery: "function",
      contactFunction: "send-contact-email",
      retention: { deliveredDays: 37, spamDays: 7 },
      limits: {
        perClient: 3,
        windowSeconds: 3600,
        globalPerMinute: 20,
        counters: "database",
        behindProxy: true,
      },
      processors: [
        { role: "hosting", name: "Example Cloud GmbH" },
        { role: "function", name: "Supabase" },
        { role: "email", name: "Example Mail Inc." },
        { role: "analytics", name: "Google" },
      ],
      analytics: { measurementId: "G-ABC123DEF4", cookies: ["_ga", "_ga_ABC123DEF4"] },
    });
  });

  it("names Supabase and the e-mail provider only when a function is configured; an unnamed one is null, never a made-up name", () => {
    expect(facts(WITH_FUNCTION).processors).toEqual([
      { role: "hosting", name: null },
      { role: "function", name: "Supabase" },
      { role: "email", name: null },
    ]);
    expect(facts({ PRIVACY_EMAIL_PROVIDER: "Example Mail Inc." }).processors).toEqual([
      { role: "hosting", name: null },
    ]);
  });

  it("a blank controller value counts as unset", () => {
    expect(facts({ PRIVACY_CONTROLLER_NAME: "  " }).controller.name).toBeNull();
  });

  it("lists exactly the schema's fields, in its order; required is what the schema refuses empty", () => {
    const fields = facts().fields;
    expect(fields.map((field) => field.name)).toEqual(Object.keys(contactSchema.shape));
    expect(fields.filter((field) => field.required).map((field) => field.name)).toEqual([
      "name",
      "email",
      "message",
    ]);
  });

  it("GA4's cookies: _ga and _ga_ with the measurement id without its G-", () => {
    expect(analyticsCookies("G-XYZ9876")).toEqual(["_ga", "_ga_XYZ9876"]);
  });
});

describe("the privacy page's copy", () => {
  it("has a label and a purpose for every field of the schema (a field added there alone fails here)", () => {
    for (const field of Object.keys(contactSchema.shape)) {
      const label = (contactFormText.fields as Record<string, { label: string } | undefined>)[field]?.label;
      expect(label?.trim(), `${field}: label`).toBeTruthy();
      expect(
        (fieldPurposes as Record<string, string | undefined>)[field]?.trim(),
        `${field}: purpose`,
      ).toBeTruthy();
    }
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

  it("the summary and the detail follow the facts: delivered-lead retention only with a function, analytics only with GA", () => {
    const inbox = facts();
    const withFunction = facts({
      ...WITH_FUNCTION,
      LEADS_RETENTION_DAYS: "37",
      GA_MEASUREMENT_ID: "G-ABC123DEF4",
    });
    expect(privacyText.summary.points(inbox).join(" ")).not.toMatch(/\d+ days/);
    expect(privacyText.summary.points(withFunction).join(" ")).toContain("37 days");
    expect(privacyText.retention.rules(inbox).join(" ")).toContain("Nothing erases it automatically");
    expect(privacyText.retention.rules(withFunction).join(" ")).toContain("erased 37 days after");
    expect(privacyText.cookies.paragraphs(inbox).join(" ")).toContain("sets no cookies");
    expect(privacyText.cookies.paragraphs(withFunction).join(" ")).toContain("_ga and _ga_ABC123DEF4");
    expect(privacyText.purposes.items(inbox)).toHaveLength(2);
    expect(privacyText.purposes.items(withFunction)).toHaveLength(3);
  });

  it("the title ends with the brand", () => {
    expect(privacyText.meta.title).toMatch(/ \| AI Automation Agency$/);
  });
});
