import { basename, join } from "node:path";

// Zod Mini, as the form's schema: the full API cost every start of the server and CLI 0.07-0.09 CPU s.
import * as z from "zod/mini";

/**
 * The server's configuration, validated at start: a malformed value stops the server naming the
 * variable, rather than failing on a visitor's request. What each means: .env.example.
 */

interface Rule {
  /** The value's problem, completing "PORT is "abc": it …". */
  must: string;
  example: string;
  /** Never repeated in a message (the refusal goes to the logs). */
  secret?: true;
}

/**
 * What a refusal says of each variable: Zod's words name neither the rule nor a value that works.
 * Each variable's schema carries its rule; one that accepts any text has none.
 */
const rules = z.registry<Rule>();

const blankIsUnset = z.transform((value: string) => (value === "" ? undefined : value));
const optionalString = z.optional(z.pipe(z.string().check(z.trim()), blankIsUnset));

/** Text matching `pattern`, or unset. */
const matching = (pattern: RegExp, rule: Rule) =>
  z.pipe(optionalString, z.optional(z.string().check(z.regex(pattern)))).register(rules, rule);

const url = (example: string, secret?: true) =>
  z
    .pipe(optionalString, z.optional(z.url({ protocol: /^https?$/ })))
    .register(rules, { must: "must be an http(s) URL", example, secret });

/** What a variable becomes when unset. */
const orElse = <T>(schema: z.ZodMiniType<T>, fallback: NonNullable<T>) => {
  const unsetIsFallback = z.transform((v: T) => v ?? fallback);
  return z.pipe(schema, unsetIsFallback);
};

/** A whole number of `unit`, at least `min`, `fallback` when unset; the fallback is the example. */
const count = (fallback: number, unit: string, { min = 1, example = String(fallback) } = {}) =>
  orElse(
    z.pipe(optionalString, z.optional(z.coerce.number<string>().check(z.int(), z.minimum(min)))),
    fallback,
  ).register(rules, { must: `must be a whole number of ${unit}, ${min} or more`, example });

const digits = z.pipe(z.string().check(z.regex(/^\d{1,5}$/)), z.transform(Number));
const port = orElse(
  z.pipe(optionalString, z.optional(z.pipe(digits, z.number().check(z.minimum(1), z.maximum(65535))))),
  3000,
).register(rules, { must: "must be a port number (1-65535)", example: "8080" });

/** An IPv4 or IPv6 address or a host name: what `server.listen(port, host)` accepts. */
const HOST_PATTERN =
  /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*|[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*)$/;

const yesOrNo = z.optional(z.enum(["1", "0", "true", "false", "yes", "no"]));
const isYes = z.transform((v: z.infer<typeof yesOrNo>) => v === "1" || v === "true" || v === "yes");
const flag = z
  .pipe(z.pipe(optionalString, yesOrNo), isYes)
  .register(rules, { must: "must be true or false (or 1/0, yes/no)", example: "true" });

export const envSchema = z
  .object({
    NODE_ENV: z
      ._default(z.enum(["development", "production", "test"]), "production")
      .register(rules, { must: "must be development, production or test", example: "production" }),
    PORT: port,
    HOST: matching(HOST_PATTERN, { must: "must be an IP address or a host name", example: "127.0.0.1" }),
    SUPABASE_URL: url("https://abcdefghijklmnop.supabase.co"),
    SUPABASE_ANON_KEY: optionalString,
    DATABASE_URL: matching(/^postgres(?:ql)?:\/\/\S+$/, {
      must: "must be a PostgreSQL URL",
      example: "postgres://site:password@db.example.com:5432/site",
      secret: true,
    }),
    LEADS_DATABASE_FILE: orElse(optionalString, ".data/leads.sqlite"),
    CONTACT_RETRY_INITIAL_SECONDS: count(30, "seconds"),
    CONTACT_RETRY_MAX_SECONDS: count(3600, "seconds"),
    CONTACT_RETRY_MAX_ATTEMPTS: count(20, "attempts"),
    LEADS_RETENTION_DAYS: count(90, "days"),
    LEADS_UNDELIVERED_RETENTION_DAYS: count(180, "days"),
    LEADS_SPAM_RETENTION_DAYS: count(30, "days"),
    LEADS_ALERT_WEBHOOK_URL: url("https://hooks.example.com/services/T000/B000/XXXX", true),
    LEADS_ALERT_PENDING_MINUTES: count(30, "minutes"),
    CONTACT_FUNCTION_TIMEOUT_MS: count(10_000, "milliseconds"),
    SITE_URL: z.pipe(
      url("https://www.example.com"),
      z.transform((v) => (v ?? "http://localhost:3000").replace(/\/+$/, "")),
    ),
    GA_MEASUREMENT_ID: matching(/^G-[A-Z0-9]{4,20}$/, {
      must: "must look like G-XXXXXXX (G- then 4 to 20 capital letters or digits)",
      example: "G-ABC123DEF4",
    }),
    PRIVACY_CONTROLLER_NAME: optionalString,
    PRIVACY_CONTROLLER_ADDRESS: optionalString,
    PRIVACY_CONTACT_EMAIL: matching(/^[^\s@,;<>"]+@[^\s@,;<>"'.]+(\.[^\s@,;<>"'.]+)+$/, {
      must: "must be an e-mail address",
      example: "privacy@example.com",
    }),
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
    PRIVACY_LAST_CHANGED: z
      .pipe(optionalString, z.optional(z.iso.date()))
      .register(rules, { must: "must be a date, YYYY-MM-DD", example: "2026-12-02" }),
    TRUST_PROXY: count(0, "proxies in front of the server", { min: 0, example: "1" }),
    FORCE_HTTPS: flag,
    RATE_LIMIT_PER_CLIENT: count(5, "submissions"),
    RATE_LIMIT_WINDOW_SECONDS: count(600, "seconds"),
    RATE_LIMIT_GLOBAL_PER_MINUTE: count(60, "submissions"),
    // Sent as `Authorization: Bearer <token>`: printable ASCII, long enough not to be guessed.
    METRICS_TOKEN: matching(/^[\x21-\x7e]{16,}$/, {
      must: "must be at least 16 printable characters without spaces",
      example: "$(openssl rand -hex 24)",
      secret: true,
    }),
    MOCKS: flag,
    /** "fail" makes every mocked call fail (mocks/contact-function.js). */
    MOCKS_MODE: z
      .pipe(optionalString, z.optional(z.enum(["fail"])))
      .register(rules, { must: 'must be "fail" or unset', example: "fail" }),
  })
  .check(
    z.superRefine((env, ctx) => {
      // Each message ends with a good value: the checks between variables have no rule of their own.
      const between = (name: keyof typeof env, message: string) =>
        ctx.addIssue({ code: "custom", params: { between: true }, path: [name], message });
      if (env.SUPABASE_URL && !env.SUPABASE_ANON_KEY)
        between(
          "SUPABASE_ANON_KEY",
          "is required when SUPABASE_URL is set, for example SUPABASE_ANON_KEY=<the project's anon key>",
        );
      // A key alone would start in inbox mode, silently: the URL was forgotten, not the key.
      if (env.SUPABASE_ANON_KEY && !env.SUPABASE_URL)
        between(
          "SUPABASE_URL",
          "is required when SUPABASE_ANON_KEY is set, for example SUPABASE_URL=https://abcdefghijklmnop.supabase.co (or unset SUPABASE_ANON_KEY too)",
        );
      // Only between values that are valid on their own (an invalid one has its own sentence).
      const valid = (...values: number[]) => values.every((value) => Number.isInteger(value) && value > 0);
      if (
        valid(env.CONTACT_RETRY_MAX_SECONDS, env.CONTACT_RETRY_INITIAL_SECONDS) &&
        env.CONTACT_RETRY_MAX_SECONDS < env.CONTACT_RETRY_INITIAL_SECONDS
      )
        between(
          "CONTACT_RETRY_MAX_SECONDS",
          "must not be less than CONTACT_RETRY_INITIAL_SECONDS, for example CONTACT_RETRY_MAX_SECONDS=3600 with CONTACT_RETRY_INITIAL_SECONDS=30",
        );
      // One client must never be able to use up the ceiling that protects everybody.
      if (
        valid(env.RATE_LIMIT_GLOBAL_PER_MINUTE, env.RATE_LIMIT_PER_CLIENT) &&
        env.RATE_LIMIT_GLOBAL_PER_MINUTE <= env.RATE_LIMIT_PER_CLIENT
      )
        between(
          "RATE_LIMIT_GLOBAL_PER_MINUTE",
          "must be greater than RATE_LIMIT_PER_CLIENT, so that one client cannot reach it, for example RATE_LIMIT_GLOBAL_PER_MINUTE=60 with RATE_LIMIT_PER_CLIENT=5",
        );
    }),
  );

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
  const mocks = ["1", "true", "yes"].includes(source.MOCKS?.trim() ?? "");
  const dev: typeof source = { ...source, PORT: source.PORT?.trim() ? source.PORT : String(DEV_PORT) };
  // Never `npm start`'s files by default (a second dispatcher would run on its SQLite store), and
  // never with mocks, whatever the shell says.
  for (const name of DATA_FILE_VARIABLES) {
    if (mocks || !source[name]?.trim())
      dev[name] = join(DEV_DATA_DIR, basename(envSchema.shape[name].parse(undefined)));
  }
  if (!mocks) return dev;
  dev.SUPABASE_URL = MOCK_SUPABASE_URL;
  dev.SUPABASE_ANON_KEY = "mock-anon-key";
  // Never the production database either: the mocked run keeps its leads in its own SQLite file.
  delete dev.DATABASE_URL;
  return dev;
}

/** A variable's rule: on its schema, or on the value its transform reads (SITE_URL). */
export function ruleOf(name: string): Rule | undefined {
  const schema = envSchema.shape[name as keyof Env];
  if (!schema) return undefined;
  return rules.get(schema) ?? (schema instanceof z.ZodMiniPipe ? rules.get(schema._zod.def.in) : undefined);
}

const shown = (value: string) => JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value);

export function describeIssue(issue: z.core.$ZodIssue, source: Record<string, string | undefined>): string {
  const name = String(issue.path[0] ?? "(environment)");
  const rule = ruleOf(name);
  // Set by the checks between variables (superRefine above); a value's own problem has its rule.
  const between = issue.code === "custom" && (issue.params as { between?: boolean } | undefined)?.between;
  if (between || !rule) return `${name} ${issue.message}.`;
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
