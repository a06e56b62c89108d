import { resolve } from "node:path";

import { z } from "zod";

/**
 * The server's whole configuration, read once from the environment when the
 * build is imported (that is, when remix-serve starts). A malformed value stops
 * the server with a message naming the variable, instead of failing later on a
 * visitor's request.
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

const flag = optionalString.pipe(
  z
    .enum(["1", "0", "true", "false", "yes", "no"], { message: "must be true/false (or 1/0)" })
    .optional()
    .transform((v) => v === "1" || v === "true" || v === "yes"),
);

export const envSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
    SUPABASE_URL: optionalUrl,
    SUPABASE_ANON_KEY: optionalString,
    CONTACT_INBOX_FILE: optionalString.transform((v) => v ?? ".data/contact-requests.jsonl"),
    CONTACT_UNDELIVERED_FILE: optionalString.transform(
      (v) => v ?? ".data/undelivered-contact-requests.jsonl",
    ),
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
