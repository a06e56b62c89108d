import { describe, expect, it } from "vitest";

import { parseEnv } from "~/lib/env.server";

describe("the lead store, the previous release's files and the metrics token in the environment", () => {
  it("defaults: the SQLite store in .data/leads.sqlite, no PostgreSQL, the old files' default paths, no metrics", () => {
    const env = parseEnv({});
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.LEADS_DATABASE_FILE).toBe(".data/leads.sqlite");
    expect(env.CONTACT_INBOX_FILE).toBe(".data/contact-requests.jsonl");
    expect(env.CONTACT_UNDELIVERED_FILE).toBe(".data/undelivered-contact-requests.jsonl");
    expect(env.METRICS_TOKEN).toBeUndefined();
  });

  it("takes a path, a PostgreSQL URL (postgres:// or postgresql://) and a token, trimmed", () => {
    const env = parseEnv({
      LEADS_DATABASE_FILE: " /var/lib/site/leads.sqlite ",
      DATABASE_URL: " postgres://site:secret@db.internal:5432/leads ",
      METRICS_TOKEN: "a-long-random-token-42",
    });
    expect(env.LEADS_DATABASE_FILE).toBe("/var/lib/site/leads.sqlite");
    expect(env.DATABASE_URL).toBe("postgres://site:secret@db.internal:5432/leads");
    expect(env.METRICS_TOKEN).toBe("a-long-random-token-42");
    expect(parseEnv({ DATABASE_URL: "postgresql://localhost/leads" }).DATABASE_URL).toBe(
      "postgresql://localhost/leads",
    );
    expect(parseEnv({ DATABASE_URL: "   " }).DATABASE_URL).toBeUndefined();
  });

  it.each([
    "mysql://db/leads",
    "sqlite:///tmp/leads.sqlite",
    "https://db.example/leads",
    "db.internal:5432",
    "postgres://",
  ])("refuses DATABASE_URL=%s, naming DATABASE_URL", (value) => {
    expect(() => parseEnv({ DATABASE_URL: value })).toThrow(/DATABASE_URL: must be a PostgreSQL URL/);
  });

  it("still refuses the inbox file as the undelivered file (both are imported at start), naming the variable", () => {
    expect(() =>
      parseEnv({ CONTACT_INBOX_FILE: "./.data/leads.jsonl", CONTACT_UNDELIVERED_FILE: ".data/leads.jsonl" }),
    ).toThrow(/CONTACT_UNDELIVERED_FILE: must not be the inbox file/);
  });

  it("refuses a short token or one with spaces", () => {
    expect(() => parseEnv({ METRICS_TOKEN: "short" })).toThrow(/METRICS_TOKEN: must be at least 16/);
    expect(() => parseEnv({ METRICS_TOKEN: "has a space in the middle" })).toThrow(/METRICS_TOKEN/);
  });
});

describe("retries, retention and alerts of the lead store", () => {
  it("defaults: first retry after 30 s, at most an hour apart, 20 attempts, 90 days, alert after 30 minutes, no webhook", () => {
    expect(parseEnv({})).toMatchObject({
      CONTACT_RETRY_INITIAL_SECONDS: 30,
      CONTACT_RETRY_MAX_SECONDS: 3600,
      CONTACT_RETRY_MAX_ATTEMPTS: 20,
      LEADS_RETENTION_DAYS: 90,
      LEADS_ALERT_PENDING_MINUTES: 30,
    });
    expect(parseEnv({}).LEADS_ALERT_WEBHOOK_URL).toBeUndefined();
  });

  it("takes its own values", () => {
    expect(
      parseEnv({
        CONTACT_RETRY_INITIAL_SECONDS: "1",
        CONTACT_RETRY_MAX_SECONDS: "1",
        CONTACT_RETRY_MAX_ATTEMPTS: "3",
        LEADS_RETENTION_DAYS: "30",
        LEADS_ALERT_PENDING_MINUTES: "5",
        LEADS_ALERT_WEBHOOK_URL: "https://hooks.example/leads",
      }),
    ).toMatchObject({
      CONTACT_RETRY_INITIAL_SECONDS: 1,
      CONTACT_RETRY_MAX_SECONDS: 1,
      CONTACT_RETRY_MAX_ATTEMPTS: 3,
      LEADS_RETENTION_DAYS: 30,
      LEADS_ALERT_PENDING_MINUTES: 5,
      LEADS_ALERT_WEBHOOK_URL: "https://hooks.example/leads",
    });
  });

  it.each([
    "CONTACT_RETRY_INITIAL_SECONDS",
    "CONTACT_RETRY_MAX_SECONDS",
    "CONTACT_RETRY_MAX_ATTEMPTS",
    "LEADS_RETENTION_DAYS",
    "LEADS_ALERT_PENDING_MINUTES",
  ])("refuses %s=0, -1 or 1.5, naming it", (variable) => {
    for (const value of ["0", "-1", "1.5", "abc"]) {
      expect(() => parseEnv({ [variable]: value })).toThrow(new RegExp(`${variable}:`));
    }
  });

  it("refuses a webhook that is not an http(s) URL", () => {
    expect(() => parseEnv({ LEADS_ALERT_WEBHOOK_URL: "ftp://hooks.example" })).toThrow(
      /LEADS_ALERT_WEBHOOK_URL: must be an http\(s\) URL/,
    );
  });

  it("refuses CONTACT_RETRY_MAX_SECONDS below CONTACT_RETRY_INITIAL_SECONDS; equal is fine", () => {
    expect(() => parseEnv({ CONTACT_RETRY_INITIAL_SECONDS: "60", CONTACT_RETRY_MAX_SECONDS: "30" })).toThrow(
      /CONTACT_RETRY_MAX_SECONDS: must not be less than CONTACT_RETRY_INITIAL_SECONDS/,
    );
    // Against the default maximum (3600) too.
    expect(() => parseEnv({ CONTACT_RETRY_INITIAL_SECONDS: "7200" })).toThrow(/CONTACT_RETRY_MAX_SECONDS/);
    expect(parseEnv({ CONTACT_RETRY_INITIAL_SECONDS: "60", CONTACT_RETRY_MAX_SECONDS: "60" })).toMatchObject({
      CONTACT_RETRY_MAX_SECONDS: 60,
    });
  });
});

describe("the rate limits", () => {
  it("defaults: 5 per client per 600 s, 60 per minute in all", () => {
    expect(parseEnv({})).toMatchObject({
      RATE_LIMIT_PER_CLIENT: 5,
      RATE_LIMIT_WINDOW_SECONDS: 600,
      RATE_LIMIT_GLOBAL_PER_MINUTE: 60,
    });
  });

  it("refuses a global ceiling that one client could reach (not greater than RATE_LIMIT_PER_CLIENT)", () => {
    for (const [perClient, global] of [
      ["10", "10"],
      ["100", "60"],
    ]) {
      expect(() =>
        parseEnv({ RATE_LIMIT_PER_CLIENT: perClient, RATE_LIMIT_GLOBAL_PER_MINUTE: global }),
      ).toThrow(/RATE_LIMIT_GLOBAL_PER_MINUTE: must be greater than RATE_LIMIT_PER_CLIENT/);
    }
    // Against the default ceiling (60) too.
    expect(() => parseEnv({ RATE_LIMIT_PER_CLIENT: "60" })).toThrow(/RATE_LIMIT_GLOBAL_PER_MINUTE/);
    expect(parseEnv({ RATE_LIMIT_PER_CLIENT: "10", RATE_LIMIT_GLOBAL_PER_MINUTE: "11" })).toMatchObject({
      RATE_LIMIT_GLOBAL_PER_MINUTE: 11,
    });
  });
});

describe("PORT and HOST, validated with the other variables", () => {
  it("defaults: port 3000, no host (every interface in production, 127.0.0.1 in development)", () => {
    const env = parseEnv({});
    expect(env.PORT).toBe(3000);
    expect(env.HOST).toBeUndefined();
  });

  it("takes a port and an address or host name", () => {
    expect(parseEnv({ PORT: "8080", HOST: "127.0.0.1" })).toMatchObject({ PORT: 8080, HOST: "127.0.0.1" });
    expect(parseEnv({ HOST: "::1" }).HOST).toBe("::1");
    expect(parseEnv({ HOST: "app.internal" }).HOST).toBe("app.internal");
  });

  it.each(["abc", "0", "65536", "80.5", "-1", "3000abc"])("refuses PORT=%s, naming PORT", (value) => {
    expect(() => parseEnv({ PORT: value })).toThrow(/PORT: must be a port number \(1-65535\)/);
  });

  it.each(["not a host", "host/path", "-bad.example"])("refuses HOST=%s, naming HOST", (value) => {
    expect(() => parseEnv({ HOST: value })).toThrow(/HOST: must be an IP address or a host name/);
  });
});
