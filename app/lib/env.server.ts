import { resolve } from "node:path";

import { z } from "zod";

/**
 * The server's whole configuration, read once from the environment when the
 * server starts (server/production.ts, server/dev.ts) and again when it imports the build. A
 * malformed value stops the server with a message naming the variable, instead of failing later
 * on a visitor's request (or, for PORT, listening somewhere else).
 */

const optionalString = z
  .string()
  .trim()
  .transform((value) => (value === "" ? undefined : value))
  .optional();

const optionalUrl = optionalString.pipe(
  z.url({ protocol: /^https?$/, message: "must be an http(s) URL" }).optional(),
);

const positiveInt = (fallback: number) =>
  optionalString.pipe(z.optional(z.coerce.number<string>().int().positive())).transform((v) => v ?? fallback);

const nonNegativeInt = (fallback: number) =>
  optionalString
    .pipe(z.optional(z.coerce.number<string>().int().nonnegative()))
    .transform((v) => v ?? fallback);

const PORT_MESSAGE = "must be a port number (1-65535)";
const port = optionalString
  .pipe(
    z.optional(
      z
        .string()
        .regex(/^\d{1,5}$/, PORT_MESSAGE)
        .transform(Number)
        .refine((n) => n >= 1 && n <= 65535, PORT_MESSAGE),
    ),
  )
  .transform((v) => v ?? 3000);

/** An IPv4 or IPv6 address or a host name: what `server.listen(port, host)` accepts. */
const HOST_PATTERN =
  /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*|[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*)$/;

const flag = optionalString.pipe(
  z
    .enum(["1", "0", "true", "false", "yes", "no"], { message: "must be true/false (or 1/0)" })
    .optional()
    .transform((v) => v === "1" || v === "true" || v === "yes"),
);

export const envSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
    PORT: port,
    /** Unset: every interface in production, 127.0.0.1 for `npm run dev`. */
    HOST: optionalString.pipe(
      z.string().regex(HOST_PATTERN, "must be an IP address or a host name").optional(),
    ),
    SUPABASE_URL: optionalUrl,
    SUPABASE_ANON_KEY: optionalString,
    /** Unset: the embedded SQLite file. Set: the PostgreSQL database every instance shares (decision 032). */
    DATABASE_URL: optionalString.pipe(
      z
        .string()
        .regex(/^postgres(?:ql)?:\/\/\S+$/, "must be a PostgreSQL URL (postgres://user:password@host:5432/db)")
        .optional(),
    ),
    LEADS_DATABASE_FILE: optionalString.transform((v) => v ?? ".data/leads.sqlite"),
    /** The files of the release before the lead store: imported once at start, then renamed. */
    CONTACT_INBOX_FILE: optionalString.transform((v) => v ?? ".data/contact-requests.jsonl"),
    CONTACT_UNDELIVERED_FILE: optionalString.transform(
      (v) => v ?? ".data/undelivered-contact-requests.jsonl",
    ),
    CONTACT_RETRY_INITIAL_SECONDS: positiveInt(30),
    CONTACT_RETRY_MAX_SECONDS: positiveInt(3600),
    CONTACT_RETRY_MAX_ATTEMPTS: positiveInt(20),
    LEADS_RETENTION_DAYS: positiveInt(90),
    LEADS_ALERT_WEBHOOK_URL: optionalUrl,
    LEADS_ALERT_PENDING_MINUTES: positiveInt(30),
    CONTACT_FUNCTION_TIMEOUT_MS: positiveInt(10_000),
    SITE_URL: optionalUrl.transform((v) => (v ?? "http://localhost:3000").replace(/\/+$/, "")),
    GA_MEASUREMENT_ID: optionalString.pipe(
      z
        .string()
        .regex(/^G-[A-Z0-9]{4,20}$/, "must look like G-XXXXXXX")
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
        // Sent as `Authorization: Bearer <token>`: printable ASCII without spaces, long enough not to be guessed.
        .regex(/^[\x21-\x7e]{16,}$/, "must be at least 16 printable characters without spaces")
        .optional(),
    ),
    MOCKS: flag,
  })
  .superRefine((env, ctx) => {
    if (env.SUPABASE_URL && !env.SUPABASE_ANON_KEY) {
      ctx.addIssue({
        code: "custom",
        path: ["SUPABASE_ANON_KEY"],
        message: "is required when SUPABASE_URL is set",
      });
    }
    if (env.CONTACT_RETRY_MAX_SECONDS < env.CONTACT_RETRY_INITIAL_SECONDS) {
      ctx.addIssue({
        code: "custom",
        path: ["CONTACT_RETRY_MAX_SECONDS"],
        message: "must not be less than CONTACT_RETRY_INITIAL_SECONDS",
      });
    }
    if (env.RATE_LIMIT_GLOBAL_PER_MINUTE <= env.RATE_LIMIT_PER_CLIENT) {
      // One client must never be able to use up the ceiling that protects everybody.
      ctx.addIssue({
        code: "custom",
        path: ["RATE_LIMIT_GLOBAL_PER_MINUTE"],
        message: "must be greater than RATE_LIMIT_PER_CLIENT, so that one client cannot reach it",
      });
    }
    if (resolve(env.CONTACT_UNDELIVERED_FILE) === resolve(env.CONTACT_INBOX_FILE)) {
      ctx.addIssue({
        code: "custom",
        path: ["CONTACT_UNDELIVERED_FILE"],
        message: "must not be the inbox file (CONTACT_INBOX_FILE)",
      });
    }
  });

export type Env = z.infer<typeof envSchema>;

export function parseEnv(source: Record<string, string | undefined>): Env {
  const result = envSchema.safeParse(source);
  if (!result.success) {
    const lines = result.error.issues.map(
      (issue) => `  - ${issue.path.join(".") || "(environment)"}: ${issue.message}`,
    );
    throw new Error(`Invalid server configuration:\n${lines.join("\n")}`);
  }
  return result.data;
}

export const env: Env = parseEnv(process.env);
