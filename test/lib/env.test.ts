import { describe, expect, it } from "vitest";

import {
  DATA_FILE_VARIABLES,
  DEV_PORT,
  developmentSource,
  envSchema,
  MOCK_SUPABASE_URL,
  parseEnv,
  ruleOf,
} from "~/lib/env.server";

it("defaults: the SQLite store in .data/, retries from 30 s to an hour apart, 20 attempts, 90 days, an alert after 30 minutes, 5 per client per 600 s and 60 a minute in all, port 3000", () => {
  const env = parseEnv({});
  expect(env).toMatchObject({
    LEADS_DATABASE_FILE: ".data/leads.sqlite",
    CONTACT_RETRY_INITIAL_SECONDS: 30,
    CONTACT_RETRY_MAX_SECONDS: 3600,
    CONTACT_RETRY_MAX_ATTEMPTS: 20,
    LEADS_RETENTION_DAYS: 90,
    LEADS_ALERT_PENDING_MINUTES: 30,
    RATE_LIMIT_PER_CLIENT: 5,
    RATE_LIMIT_WINDOW_SECONDS: 600,
    RATE_LIMIT_GLOBAL_PER_MINUTE: 60,
    PORT: 3000,
  });
  // No PostgreSQL, no metrics, no webhook and no host (every interface in production).
  for (const name of ["DATABASE_URL", "METRICS_TOKEN", "LEADS_ALERT_WEBHOOK_URL", "HOST"] as const)
    expect(env[name], name).toBeUndefined();
});

describe("the lead store and the metrics token in the environment", () => {
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
    expect(() => parseEnv({ DATABASE_URL: value })).toThrow(
      /DATABASE_URL is set \(\d+ characters, not shown\): it must be a PostgreSQL URL/,
    );
  });
});

describe("retries, retention and alerts of the lead store", () => {
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
      expect(() => parseEnv({ [variable]: value })).toThrow(
        new RegExp(`${variable} is "${value.replace(".", "\\.")}": it must be a whole number`),
      );
    }
  });

  it("refuses a webhook that is not an http(s) URL", () => {
    expect(() => parseEnv({ LEADS_ALERT_WEBHOOK_URL: "ftp://hooks.example" })).toThrow(
      /LEADS_ALERT_WEBHOOK_URL is set \(\d+ characters, not shown\): it must be an http\(s\) URL/,
    );
  });

  it("refuses CONTACT_RETRY_MAX_SECONDS below CONTACT_RETRY_INITIAL_SECONDS; equal is fine", () => {
    expect(() => parseEnv({ CONTACT_RETRY_INITIAL_SECONDS: "60", CONTACT_RETRY_MAX_SECONDS: "30" })).toThrow(
      /CONTACT_RETRY_MAX_SECONDS must not be less than CONTACT_RETRY_INITIAL_SECONDS, for example/,
    );
    // Against the default maximum (3600) too.
    expect(() => parseEnv({ CONTACT_RETRY_INITIAL_SECONDS: "7200" })).toThrow(/CONTACT_RETRY_MAX_SECONDS/);
    expect(parseEnv({ CONTACT_RETRY_INITIAL_SECONDS: "60", CONTACT_RETRY_MAX_SECONDS: "60" })).toMatchObject({
      CONTACT_RETRY_MAX_SECONDS: 60,
    });
  });
});

describe("the rate limits", () => {
  it("refuses a global ceiling that one client could reach (not greater than RATE_LIMIT_PER_CLIENT)", () => {
    for (const [perClient, global] of [
      ["10", "10"],
      ["100", "60"],
    ]) {
      expect(() =>
        parseEnv({ RATE_LIMIT_PER_CLIENT: perClient, RATE_LIMIT_GLOBAL_PER_MINUTE: global }),
      ).toThrow(
        /RATE_LIMIT_GLOBAL_PER_MINUTE must be greater than RATE_LIMIT_PER_CLIENT, so that one client cannot reach it, for example/,
      );
    }
    // Against the default ceiling (60) too.
    expect(() => parseEnv({ RATE_LIMIT_PER_CLIENT: "60" })).toThrow(/RATE_LIMIT_GLOBAL_PER_MINUTE/);
    expect(parseEnv({ RATE_LIMIT_PER_CLIENT: "10", RATE_LIMIT_GLOBAL_PER_MINUTE: "11" })).toMatchObject({
      RATE_LIMIT_GLOBAL_PER_MINUTE: 11,
    });
  });
});

describe("PORT and HOST, validated with the other variables", () => {
  it("takes a port and an address or host name", () => {
    expect(parseEnv({ PORT: "8080", HOST: "127.0.0.1" })).toMatchObject({ PORT: 8080, HOST: "127.0.0.1" });
    expect(parseEnv({ HOST: "::1" }).HOST).toBe("::1");
    expect(parseEnv({ HOST: "app.internal" }).HOST).toBe("app.internal");
  });

  it.each(["abc", "0", "65536", "80.5", "-1", "3000abc"])("refuses PORT=%s, naming PORT", (value) => {
    expect(() => parseEnv({ PORT: value })).toThrow(/PORT is .*: it must be a port number \(1-65535\)/);
  });

  it.each(["not a host", "host/path", "-bad.example"])("refuses HOST=%s, naming HOST", (value) => {
    expect(() => parseEnv({ HOST: value })).toThrow(/HOST is .*: it must be an IP address or a host name/);
  });
});

/** The whole refusal for one environment, as `npm start` prints it. */
function refusal(source: Record<string, string | undefined>): string {
  try {
    parseEnv(source);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`accepted: ${JSON.stringify(source)}`);
}

describe("every refusal is a sentence: the variable, the value's problem, a value that works (issue 24)", () => {
  const cases: [string, string, string][] = [
    [
      "NODE_ENV",
      "staging",
      'NODE_ENV is "staging": it must be development, production or test, for example NODE_ENV=production.',
    ],
    ["PORT", "abc", 'PORT is "abc": it must be a port number (1-65535), for example PORT=8080.'],
    [
      "HOST",
      "not a host",
      'HOST is "not a host": it must be an IP address or a host name, for example HOST=127.0.0.1.',
    ],
    [
      "SUPABASE_URL",
      "abcd.supabase.co",
      'SUPABASE_URL is "abcd.supabase.co": it must be an http(s) URL, for example SUPABASE_URL=https://abcdefghijklmnop.supabase.co.',
    ],
    [
      "CONTACT_FUNCTION_TIMEOUT_MS",
      "10s",
      'CONTACT_FUNCTION_TIMEOUT_MS is "10s": it must be a whole number of milliseconds, 1 or more, for example CONTACT_FUNCTION_TIMEOUT_MS=10000.',
    ],
    [
      "SITE_URL",
      "www.example.com",
      'SITE_URL is "www.example.com": it must be an http(s) URL, for example SITE_URL=https://www.example.com.',
    ],
    [
      "GA_MEASUREMENT_ID",
      "UA-1234",
      'GA_MEASUREMENT_ID is "UA-1234": it must look like G-XXXXXXX (G- then 4 to 20 capital letters or digits), for example GA_MEASUREMENT_ID=G-ABC123DEF4.',
    ],
    [
      "TRUST_PROXY",
      "abc",
      'TRUST_PROXY is "abc": it must be a whole number of proxies in front of the server, 0 or more, for example TRUST_PROXY=1.',
    ],
    [
      "FORCE_HTTPS",
      "maybe",
      'FORCE_HTTPS is "maybe": it must be true or false (or 1/0, yes/no), for example FORCE_HTTPS=true.',
    ],
    [
      "RATE_LIMIT_PER_CLIENT",
      "0",
      'RATE_LIMIT_PER_CLIENT is "0": it must be a whole number of submissions, 1 or more, for example RATE_LIMIT_PER_CLIENT=5.',
    ],
    [
      "RATE_LIMIT_WINDOW_SECONDS",
      "1.5",
      'RATE_LIMIT_WINDOW_SECONDS is "1.5": it must be a whole number of seconds, 1 or more, for example RATE_LIMIT_WINDOW_SECONDS=600.',
    ],
    [
      "RATE_LIMIT_GLOBAL_PER_MINUTE",
      "-3",
      'RATE_LIMIT_GLOBAL_PER_MINUTE is "-3": it must be a whole number of submissions, 1 or more, for example RATE_LIMIT_GLOBAL_PER_MINUTE=60.',
    ],
    [
      "METRICS_TOKEN",
      "short-secret",
      "METRICS_TOKEN is set (12 characters, not shown): it must be at least 16 printable characters without spaces, for example METRICS_TOKEN=$(openssl rand -hex 24).",
    ],
    [
      "DATABASE_URL",
      "mysql://site:hunter2@db.example.com/site",
      "DATABASE_URL is set (40 characters, not shown): it must be a PostgreSQL URL, for example DATABASE_URL=postgres://site:password@db.example.com:5432/site.",
    ],
    [
      "CONTACT_RETRY_INITIAL_SECONDS",
      "0.5",
      'CONTACT_RETRY_INITIAL_SECONDS is "0.5": it must be a whole number of seconds, 1 or more, for example CONTACT_RETRY_INITIAL_SECONDS=30.',
    ],
    [
      "CONTACT_RETRY_MAX_SECONDS",
      "soon",
      'CONTACT_RETRY_MAX_SECONDS is "soon": it must be a whole number of seconds, 1 or more, for example CONTACT_RETRY_MAX_SECONDS=3600.',
    ],
    [
      "CONTACT_RETRY_MAX_ATTEMPTS",
      "0",
      'CONTACT_RETRY_MAX_ATTEMPTS is "0": it must be a whole number of attempts, 1 or more, for example CONTACT_RETRY_MAX_ATTEMPTS=20.',
    ],
    [
      "LEADS_RETENTION_DAYS",
      "-1",
      'LEADS_RETENTION_DAYS is "-1": it must be a whole number of days, 1 or more, for example LEADS_RETENTION_DAYS=90.',
    ],
    [
      "LEADS_ALERT_WEBHOOK_URL",
      "hooks.example.com/T0/secret",
      "LEADS_ALERT_WEBHOOK_URL is set (27 characters, not shown): it must be an http(s) URL, for example LEADS_ALERT_WEBHOOK_URL=https://hooks.example.com/services/T000/B000/XXXX.",
    ],
    [
      "LEADS_ALERT_PENDING_MINUTES",
      "half an hour",
      'LEADS_ALERT_PENDING_MINUTES is "half an hour": it must be a whole number of minutes, 1 or more, for example LEADS_ALERT_PENDING_MINUTES=30.',
    ],
    [
      "LEADS_UNDELIVERED_RETENTION_DAYS",
      "0",
      'LEADS_UNDELIVERED_RETENTION_DAYS is "0": it must be a whole number of days, 1 or more, for example LEADS_UNDELIVERED_RETENTION_DAYS=180.',
    ],
    [
      "LEADS_SPAM_RETENTION_DAYS",
      "a month",
      'LEADS_SPAM_RETENTION_DAYS is "a month": it must be a whole number of days, 1 or more, for example LEADS_SPAM_RETENTION_DAYS=30.',
    ],
    [
      "PRIVACY_CONTACT_EMAIL",
      "privacy at example.com",
      'PRIVACY_CONTACT_EMAIL is "privacy at example.com": it must be an e-mail address, for example PRIVACY_CONTACT_EMAIL=privacy@example.com.',
    ],
    [
      "PRIVACY_LAST_CHANGED",
      "2026-02-30",
      'PRIVACY_LAST_CHANGED is "2026-02-30": it must be a date, YYYY-MM-DD, for example PRIVACY_LAST_CHANGED=2026-12-02.',
    ],
    ["MOCKS", "on", 'MOCKS is "on": it must be true or false (or 1/0, yes/no), for example MOCKS=true.'],
    [
      "MOCKS_MODE",
      "fails",
      'MOCKS_MODE is "fails": it must be "fail" or unset, for example MOCKS_MODE=fail.',
    ],
  ];

  it.each(cases)("%s=%s", (name, value, sentence) => {
    // With its key, so that SUPABASE_URL's own problem is the only one.
    const source = name === "SUPABASE_URL" ? { [name]: value, SUPABASE_ANON_KEY: "k" } : { [name]: value };
    expect(refusal(source)).toBe(`Invalid server configuration:\n  - ${sentence}`);
  });

  it("covers every variable: each has a rule with a bad value tested, or accepts any text and is checked against the others", () => {
    const anyText = [
      "SUPABASE_ANON_KEY",
      "LEADS_DATABASE_FILE",
      // What the privacy page states about who runs the site and with whom: any text.
      "PRIVACY_CONTROLLER_NAME",
      "PRIVACY_CONTROLLER_ADDRESS",
      "PRIVACY_HOSTING_PROVIDER",
      "PRIVACY_EMAIL_PROVIDER",
      "PRIVACY_HOSTING_REGION",
      "PRIVACY_DATABASE_PROVIDER",
      "PRIVACY_DATABASE_REGION",
      "PRIVACY_FUNCTION_REGION",
      "PRIVACY_EMAIL_REGION",
      "PRIVACY_ANALYTICS_REGION",
      "PRIVACY_TRANSFER_SAFEGUARDS",
      "PRIVACY_DPO",
    ];
    const variables = Object.keys(envSchema.shape);
    const ruled = variables.filter((name) => ruleOf(name) !== undefined);
    expect([...ruled, ...anyText].sort()).toEqual(variables.sort());
    expect(cases.map(([name]) => name).sort()).toEqual(ruled.sort());
  });

  it("a secret is never repeated, even when it is the problem", () => {
    expect(refusal({ METRICS_TOKEN: "hunter2 hunter2 hunter2" })).not.toContain("hunter2");
  });

  it("SUPABASE_ANON_KEY without SUPABASE_URL is refused (it started in inbox mode, silently)", () => {
    expect(refusal({ SUPABASE_ANON_KEY: "anon-key" })).toBe(
      "Invalid server configuration:\n  - SUPABASE_URL is required when SUPABASE_ANON_KEY is set, for example SUPABASE_URL=https://abcdefghijklmnop.supabase.co (or unset SUPABASE_ANON_KEY too).",
    );
  });

  it("SUPABASE_URL without SUPABASE_ANON_KEY is refused, as before", () => {
    expect(refusal({ SUPABASE_URL: "https://abcd.supabase.co" })).toBe(
      "Invalid server configuration:\n  - SUPABASE_ANON_KEY is required when SUPABASE_URL is set, for example SUPABASE_ANON_KEY=<the project's anon key>.",
    );
  });

  it("every problem at once, one line each", () => {
    const lines = refusal({ PORT: "abc", TRUST_PROXY: "x", FORCE_HTTPS: "y" }).split("\n");
    expect(lines.slice(1).map((line) => line.split(" ")[3])).toEqual(["PORT", "TRUST_PROXY", "FORCE_HTTPS"]);
  });
});

describe("npm run dev's defaults: one rule, development + MOCKS → the mock and the dev data folder (issue 24)", () => {
  it("development: PORT 3001 and the lead store under .data/dev/ (issue 40), beside npm start's 3000 and .data/; an explicit PORT wins", () => {
    expect(DEV_PORT).toBe(3001);
    expect(parseEnv({ NODE_ENV: "development" })).toMatchObject({
      PORT: 3001,
      LEADS_DATABASE_FILE: ".data/dev/leads.sqlite",
    });
    expect(parseEnv({ NODE_ENV: "development", PORT: "4000" }).PORT).toBe(4000);
    expect(parseEnv({ NODE_ENV: "production" })).toMatchObject({
      PORT: 3000,
      LEADS_DATABASE_FILE: ".data/leads.sqlite",
    });
  });

  it("development + MOCKS=true: the mock's URL and every data file under .data/dev/, whatever the shell says", () => {
    const shell = {
      NODE_ENV: "development",
      MOCKS: "true",
      SUPABASE_URL: "https://real-project.supabase.co",
      SUPABASE_ANON_KEY: "real-key",
      LEADS_DATABASE_FILE: "/var/lib/site/leads.sqlite",
    };
    const env = parseEnv(shell);
    expect(env.SUPABASE_URL).toBe(MOCK_SUPABASE_URL);
    expect(env.SUPABASE_ANON_KEY).toBe("mock-anon-key");
    expect(env.LEADS_DATABASE_FILE).toBe(".data/dev/leads.sqlite");
    for (const name of DATA_FILE_VARIABLES) expect(env[name].startsWith(".data/dev/"), name).toBe(true);
    // The caller's object is left alone.
    expect(shell.SUPABASE_URL).toBe("https://real-project.supabase.co");
  });

  it("no mocks, or not development: the shell's values, untouched", () => {
    const shell = {
      SUPABASE_URL: "https://real-project.supabase.co",
      SUPABASE_ANON_KEY: "real-key",
      LEADS_DATABASE_FILE: "/srv/leads.sqlite",
    };
    for (const extra of [
      { NODE_ENV: "development" },
      { NODE_ENV: "production", MOCKS: "true" },
      { MOCKS: "true" },
    ]) {
      const env = parseEnv({ ...shell, ...extra });
      expect(env.SUPABASE_URL).toBe("https://real-project.supabase.co");
      expect(env.LEADS_DATABASE_FILE).toBe("/srv/leads.sqlite");
    }
    expect(developmentSource({ MOCKS: "true" })).toEqual({ MOCKS: "true" });
  });
});
