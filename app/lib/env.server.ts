import { basename, join } from "node:path";

import { z } from "zod";

/**
 * The server's configuration, validated at start: a malformed value stops the server naming the
 * variable, rather than failing on a visitor's request. What each means: .env.example.
 */

const optionalString = z
  .string()
  .trim()
  .transform((value) => (value === "" ? undefined : value))
  .optional();

const optionalUrl = optionalString.pipe(z.url({ protocol: /^https?$/ }).optional());

const positiveInt = (fallback: number) =>
  optionalString.pipe(z.optional(z.coerce.number<string>().int().positive())).transform((v) => v ?? fallback);

const nonNegativeInt = (fallback: number) =>
  optionalString
    .pipe(z.optional(z.coerce.number<string>().int().nonnegative()))
    .transform((v) => v ?? fallback);

/** A day that exists: 2026-02-30 matches the pattern but is no date. */
function isCalendarDay(day: string): boolean {
  const parsed = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().startsWith(day);
}

const port = optionalString
  .pipe(
    z.optional(
      z
        .string()
        .regex(/^\d{1,5}$/)
        .transform(Number)
        .pipe(z.number().min(1).max(65535)),
    ),
  )
  .transform((v) => v ?? 3000);

/** An IPv4 or IPv6 address or a host name: what `server.listen(port, host)` accepts. */
const HOST_PATTERN =
  /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*|[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*)$/;

const flag = optionalString.pipe(
  z
    .enum(["1", "0", "true", "false", "yes", "no"])
    .optional()
    .transform((v) => v === "1" || v === "true" || v === "yes"),
);

export const envSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
    PORT: port,
    HOST: optionalString.pipe(z.string().regex(HOST_PATTERN).optional()),
    SUPABASE_URL: optionalUrl,
    SUPABASE_ANON_KEY: optionalString,
    DATABASE_URL: optionalString.pipe(
      z
        .string()
        .regex(/^postgres(?:ql)?:\/\/\S+$/)
        .optional(),
    ),
    LEADS_DATABASE_FILE: optionalString.transform((v) => v ?? ".data/leads.sqlite"),
    CONTACT_RETRY_INITIAL_SECONDS: positiveInt(30),
    CONTACT_RETRY_MAX_SECONDS: positiveInt(3600),
    CONTACT_RETRY_MAX_ATTEMPTS: positiveInt(20),
    LEADS_RETENTION_DAYS: positiveInt(90),
    LEADS_UNDELIVERED_RETENTION_DAYS: positiveInt(180),
    LEADS_SPAM_RETENTION_DAYS: positiveInt(30),
    LEADS_ALERT_WEBHOOK_URL: optionalUrl,
    LEADS_ALERT_PENDING_MINUTES: positiveInt(30),
    CONTACT_FUNCTION_TIMEOUT_MS: positiveInt(10_000),
    SITE_URL: optionalUrl.transform((v) => (v ?? "http://localhost:3000").replace(/\/+$/, "")),
    GA_MEASUREMENT_ID: optionalString.pipe(
      z
        .string()
        .regex(/^G-[A-Z0-9]{4,20}$/)
        .optional(),
    ),
    PRIVACY_CONTROLLER_NAME: optionalString,
    PRIVACY_CONTROLLER_ADDRESS: optionalString,
    PRIVACY_CONTACT_EMAIL: optionalString.pipe(
      z
        .string()
        .regex(/^[^\s@,;<>"]+@[^\s@,;<>"'.]+(\.[^\s@,;<>"'.]+)+$/)
        .optional(),
    ),
    PRIVACY_HOSTING_PROVIDER: optionalString,
    PRIVACY_EMAIL_PROVIDER: optionalString,
    PRIVACY_HOSTING_REGION: optionalString,
    PRIVACY_DATABASE_PROVIDER: optionalString,
    PRIVACY_DATABASE_REGION: optionalString,
    PRIVACY_FUNCTION_REGION: optionalString,
    PRIVACY_EMAIL_REGION: optionalString,
    PRIVACY_ANALYTICS_REGION: optionalString,
    PRIVACY_TRANSFER_SAFEGUARDS: optionalString,
    PRIVACY_DPO: optionalString,
    PRIVACY_LAST_CHANGED: optionalString.pipe(
      z
        .string()
        .regex(/^\d{4}-\d{2}-\d{2}$/)
        .refine(isCalendarDay)
        .optional(),
    ),
    TRUST_PROXY: nonNegativeInt(0),
    FORCE_HTTPS: flag,
    RATE_LIMIT_PER_CLIENT: positiveInt(5),
    RATE_LIMIT_WINDOW_SECONDS: positiveInt(600),
    RATE_LIMIT_GLOBAL_PER_MINUTE: positiveInt(60),
    METRICS_TOKEN: optionalString.pipe(
      z
        .string()
        // Sent as `Authorization: Bearer <token>`: printable ASCII, long enough not to be guessed.
        .regex(/^[\x21-\x7e]{16,}$/)
        .optional(),
    ),
    MOCKS: flag,
    /** "fail" makes every mocked call fail (mocks/contact-function.js). */
    MOCKS_MODE: optionalString.pipe(z.enum(["fail"]).optional()),
  })
  .superRefine((env, ctx) => {
    if (env.SUPABASE_URL && !env.SUPABASE_ANON_KEY) {
      ctx.addIssue({
        code: "custom",
        params: { between: true },
        path: ["SUPABASE_ANON_KEY"],
        message: "is required when SUPABASE_URL is set",
      });
    }
    // A key alone would start in inbox mode, silently: the URL was forgotten, not the key.
    if (env.SUPABASE_ANON_KEY && !env.SUPABASE_URL) {
      ctx.addIssue({
        code: "custom",
        params: { between: true },
        path: ["SUPABASE_URL"],
        message: "is required when SUPABASE_ANON_KEY is set",
      });
    }
    // Only between values that are valid on their own (an invalid one has its own sentence).
    const valid = (...values: number[]) => values.every((value) => Number.isInteger(value) && value > 0);
    if (
      valid(env.CONTACT_RETRY_MAX_SECONDS, env.CONTACT_RETRY_INITIAL_SECONDS) &&
      env.CONTACT_RETRY_MAX_SECONDS < env.CONTACT_RETRY_INITIAL_SECONDS
    ) {
      ctx.addIssue({
        code: "custom",
        params: { between: true },
        path: ["CONTACT_RETRY_MAX_SECONDS"],
        message: "must not be less than CONTACT_RETRY_INITIAL_SECONDS",
      });
    }
    if (
      valid(env.RATE_LIMIT_GLOBAL_PER_MINUTE, env.RATE_LIMIT_PER_CLIENT) &&
      env.RATE_LIMIT_GLOBAL_PER_MINUTE <= env.RATE_LIMIT_PER_CLIENT
    ) {
      // One client must never be able to use up the ceiling that protects everybody.
      ctx.addIssue({
        code: "custom",
        params: { between: true },
        path: ["RATE_LIMIT_GLOBAL_PER_MINUTE"],
        message: "must be greater than RATE_LIMIT_PER_CLIENT, so that one client cannot reach it",
      });
    }
  });

export type Env = z.infer<typeof envSchema>;

// --- npm run dev's own defaults: applied before validation, so every reader of `env` agrees.

/** `npm run dev` listens here unless PORT says otherwise: `npm start` keeps 3000, both can run. */
export const DEV_PORT = 3001;
export const DEV_DATA_DIR = ".data/dev";
/** MSW answers it inside the dev process (server/dev.ts). */
export const MOCK_SUPABASE_URL = "http://127.0.0.1:54321";
/** Every variable naming a file the server keeps leads in. */
export const DATA_FILE_VARIABLES = ["LEADS_DATABASE_FILE"] as const;

/**
 * NODE_ENV=development: PORT and data files default to DEV_PORT and DEV_DATA_DIR. With MOCKS=true,
 * whatever the shell exported, the run reaches neither the real function nor production data (a
 * shell with production variables is exactly how test leads reach production).
 */
export function developmentSource(
  source: Record<string, string | undefined>,
): Record<string, string | undefined> {
  if (source.NODE_ENV !== "development") return source;
  const dev: Record<string, string | undefined> = {
    ...source,
    PORT: source.PORT?.trim() ? source.PORT : String(DEV_PORT),
  };
  // Never `npm start`'s files by default: a second dispatcher would run on its SQLite store.
  for (const name of DATA_FILE_VARIABLES) {
    if (!source[name]?.trim())
      dev[name] = join(DEV_DATA_DIR, basename(envSchema.shape[name].parse(undefined)));
  }
  if (!["1", "true", "yes"].includes(source.MOCKS?.trim() ?? "")) return dev;
  dev.SUPABASE_URL = MOCK_SUPABASE_URL;
  dev.SUPABASE_ANON_KEY = "mock-anon-key";
  // Never the production database either: the mocked run keeps its leads in its own SQLite file.
  delete dev.DATABASE_URL;
  for (const name of DATA_FILE_VARIABLES) {
    const fallback = envSchema.shape[name].parse(undefined);
    dev[name] = join(DEV_DATA_DIR, basename(fallback));
  }
  return dev;
}

// --- What a refusal says: Zod's words name neither the rule nor a value that works; each variable
// says both here, and only here. A variable that accepts any text has no entry.

interface Rule {
  /** The value's problem, completing "PORT is "abc": it …". */
  must: string;
  example: string;
  /** Never repeated in a message (the refusal goes to the logs). */
  secret?: true;
}

export const RULES: Record<string, Rule> = {
  NODE_ENV: { must: "must be development, production or test", example: "production" },
  PORT: { must: "must be a port number (1-65535)", example: "8080" },
  HOST: { must: "must be an IP address or a host name", example: "127.0.0.1" },
  SUPABASE_URL: { must: "must be an http(s) URL", example: "https://abcdefghijklmnop.supabase.co" },
  CONTACT_FUNCTION_TIMEOUT_MS: {
    must: "must be a whole number of milliseconds, 1 or more",
    example: "10000",
  },
  SITE_URL: { must: "must be an http(s) URL", example: "https://www.example.com" },
  GA_MEASUREMENT_ID: {
    must: "must look like G-XXXXXXX (G- then 4 to 20 capital letters or digits)",
    example: "G-ABC123DEF4",
  },
  TRUST_PROXY: { must: "must be a whole number of proxies in front of the server, 0 or more", example: "1" },
  FORCE_HTTPS: { must: "must be true or false (or 1/0, yes/no)", example: "true" },
  RATE_LIMIT_PER_CLIENT: { must: "must be a whole number of submissions, 1 or more", example: "5" },
  RATE_LIMIT_WINDOW_SECONDS: { must: "must be a whole number of seconds, 1 or more", example: "600" },
  RATE_LIMIT_GLOBAL_PER_MINUTE: { must: "must be a whole number of submissions, 1 or more", example: "60" },
  METRICS_TOKEN: {
    must: "must be at least 16 printable characters without spaces",
    example: "$(openssl rand -hex 24)",
    secret: true,
  },
  DATABASE_URL: {
    must: "must be a PostgreSQL URL",
    example: "postgres://site:password@db.example.com:5432/site",
    secret: true,
  },
  CONTACT_RETRY_INITIAL_SECONDS: { must: "must be a whole number of seconds, 1 or more", example: "30" },
  CONTACT_RETRY_MAX_SECONDS: { must: "must be a whole number of seconds, 1 or more", example: "3600" },
  CONTACT_RETRY_MAX_ATTEMPTS: { must: "must be a whole number of attempts, 1 or more", example: "20" },
  LEADS_RETENTION_DAYS: { must: "must be a whole number of days, 1 or more", example: "90" },
  LEADS_UNDELIVERED_RETENTION_DAYS: { must: "must be a whole number of days, 1 or more", example: "180" },
  LEADS_SPAM_RETENTION_DAYS: { must: "must be a whole number of days, 1 or more", example: "30" },
  PRIVACY_CONTACT_EMAIL: { must: "must be an e-mail address", example: "privacy@example.com" },
  PRIVACY_LAST_CHANGED: { must: "must be a date, YYYY-MM-DD", example: "2026-12-02" },
  LEADS_ALERT_WEBHOOK_URL: {
    must: "must be an http(s) URL",
    example: "https://hooks.example.com/services/T000/B000/XXXX",
    secret: true,
  },
  LEADS_ALERT_PENDING_MINUTES: { must: "must be a whole number of minutes, 1 or more", example: "30" },
  MOCKS: { must: "must be true or false (or 1/0, yes/no)", example: "true" },
  MOCKS_MODE: { must: 'must be "fail" or unset', example: "fail" },
};

/** A good value for a cross-variable issue (its message states the problem). */
const CROSS_EXAMPLES: Record<string, string> = {
  SUPABASE_ANON_KEY: "SUPABASE_ANON_KEY=<the project's anon key>",
  SUPABASE_URL: "SUPABASE_URL=https://abcdefghijklmnop.supabase.co (or unset SUPABASE_ANON_KEY too)",
  CONTACT_RETRY_MAX_SECONDS: "CONTACT_RETRY_MAX_SECONDS=3600 with CONTACT_RETRY_INITIAL_SECONDS=30",
  RATE_LIMIT_GLOBAL_PER_MINUTE: "RATE_LIMIT_GLOBAL_PER_MINUTE=60 with RATE_LIMIT_PER_CLIENT=5",
};

const shown = (value: string) => JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value);

export function describeIssue(issue: z.core.$ZodIssue, source: Record<string, string | undefined>): string {
  const name = String(issue.path[0] ?? "(environment)");
  const rule = RULES[name];
  // Set by the checks between variables (superRefine above); a value's own problem has its rule.
  const between = issue.code === "custom" && (issue.params as { between?: boolean } | undefined)?.between;
  if (between || !rule) {
    const example = CROSS_EXAMPLES[name];
    return `${name} ${issue.message}${example ? `, for example ${example}` : ""}.`;
  }
  const value = source[name] ?? "";
  const what = rule.secret ? `is set (${value.length} characters, not shown)` : `is ${shown(value)}`;
  return `${name} ${what}: it ${rule.must}, for example ${name}=${rule.example}.`;
}

export function parseEnv(input: Record<string, string | undefined>): Env {
  const source = developmentSource(input);
  const result = envSchema.safeParse(source);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  - ${describeIssue(issue, source)}`);
    throw new Error(`Invalid server configuration:\n${lines.join("\n")}`);
  }
  return result.data;
}

export const env: Env = parseEnv(process.env);
