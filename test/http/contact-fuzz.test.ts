import { Agent, fetch } from "undici";
import { describe, expect, it } from "vitest";

import { CONTACT_FIELDS, type ContactFieldName } from "~/content/contact-fields";

import { leadStoreEnv, useAppWithFunction } from "../support/app-server";
import { scriptsRefusedByPolicy } from "../security/html";
import { type LeadRow, readLeads } from "../support/leads";

/**
 * Fuzzes the contact action over HTTP with randomized and hostile bodies, as a bot would.
 * Deterministic per seed (FUZZ_SEED, printed for replay); FUZZ_COUNT cases (default 2,000).
 * Each case carries a unique token in its message, so every call and lead traces to its case.
 * Invariants:
 * - no 5xx (the fake function always succeeds), and the server still serves the page afterwards;
 * - each case answered as sent (303 for the no-JS document endpoint, 200 for single fetch with
 *   `answer=data`, 202 for a hostile body that reached single fetch without it) is one lead: held
 *   as spam and never called (a filled honeypot always is: decision 042), or delivered by one call
 *   with exactly its trimmed values under the lead's id; no other case reaches the function or store;
 * - valid cases are answered as sent, invalid ones get their precise 4xx;
 * - no HTML answer holds a script its policy does not allow by hash, an inline event handler, or
 *   injected markup unescaped.
 */

const COUNT = Number(process.env.FUZZ_COUNT ?? 2_000);
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
const CONCURRENCY = 8;
/** One case in this many goes to the no-JS document endpoint (full SSR); the rest to single fetch. */
const DOCUMENT_EVERY = 8;
/** Every field of the form, from its table: a field added there is fuzzed with no change here. */
const FIELDS: readonly ContactFieldName[] = CONTACT_FIELDS.map(({ name }) => name);
type Field = ContactFieldName;
const SIZES = ["1-10", "11-50", "51-200", "201-1000", "1000+"];
const HONEYPOT = "hp_ref_code";

/** mulberry32: small, fast, seedable. */
function createRandom(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => items[int(0, items.length - 1)]!;
  const chance = (p: number) => next() < p;
  return { next, int, pick, chance };
}
type Random = ReturnType<typeof createRandom>;

const MARKUP = [
  '<script>alert("fz")</script>',
  '"><img src=x onerror=alert(1)>',
  "<svg/onload=alert(1)>",
  "</textarea><script>alert(2)</script>",
  "<iframe src=javascript:alert(3)>",
  "'-alert(4)-'",
  "javascript:alert(5)",
  '<a href="javascript:alert(6)">x</a>',
  "{{constructor.constructor('alert(7)')()}}",
  "${alert(8)}",
  "<!--",
  "]]><![CDATA[",
  "<style>*{display:none}</style>",
  "\u2028\u2029",
];
/** Markup that must never come back unescaped in an HTML answer. */
const DANGEROUS = [
  "<script>alert",
  "<img src=x onerror",
  "<svg/onload",
  "<iframe src=javascript",
  "<style>*{display",
];

const WORDS = [
  "automation",
  "invoices",
  "chatbot",
  "CRM",
  "Ünïcödé",
  "日本語",
  "عربى",
  "emoji 🤖🚀",
  "naïve café",
  "שלום",
  "Zürich",
  "Ελληνικά",
  "tab\tinside",
];

function words(random: Random, min: number, max: number): string {
  const count = random.int(min, max);
  return Array.from({ length: count }, () => random.pick(WORDS)).join(" ");
}

function validEmail(random: Random): string {
  const local = random
    .pick(["ada", "grace.hopper", "x+tag", "o'", "first_last", "a-b", "ÜSER", "1234"])
    .replace("'", "o");
  const domain = random.pick([
    "example.com",
    "mail.example.org",
    "ex-ample.co.uk",
    "xn--bcher-kva.example",
    "例え.jp",
  ]);
  return `${local}@${domain}`;
}

interface Case {
  id: number;
  token: string;
  kind: "valid" | "invalid" | "honeypot" | "hostile";
  /** What the case expects: a status, or "any" for hostile bodies whose outcome is not known up front. */
  expectStatus: number | "any";
  expectBody?: Record<Field, string>;
  document: boolean;
  body: Buffer | string;
  contentType: string | undefined;
  description: string;
}

function validFields(random: Random, token: string): Record<Field, string> {
  const name = random.chance(0.2)
    ? "A"
    : words(random, 1, 4).replace(/\t/g, " ").slice(0, 100).trim() || "Ada";
  const fields: Record<Field, string> = {
    name,
    email: validEmail(random),
    phone: random.chance(0.5) ? random.pick(["+1 (513) 555-0100", "555 0199", "+44 20 7946 0958", ""]) : "",
    // One-line fields never hold a tab (a control character): only the message may.
    company: random.chance(0.5) ? words(random, 1, 3).replace(/\t/g, " ") : "",
    website: random.chance(0.5)
      ? random.pick(["https://example.com", "http://sub.example.org/path?q=1#x", "https://例え.jp"])
      : "",
    companySize: random.chance(0.6) ? random.pick(SIZES) : "",
    industry: random.chance(0.5) ? words(random, 1, 2).replace(/\t/g, " ") : "",
    message: "",
  };
  const payload = random.chance(0.6) ? ` ${random.pick(MARKUP)} ` : " ";
  const filler = random.chance(0.1) ? "y".repeat(random.int(100, 1_800)) : words(random, 2, 20);
  fields.message = `${token}${payload}${filler}`.slice(0, 2_000).trim();
  if (random.chance(0.2)) fields.message = fields.message.replace(/ /g, "\n");
  return fields;
}

/** The function's view of a valid case: trimmed, line breaks normalised. */
function expectedBody(fields: Record<Field, string>): Record<Field, string> {
  const out = {} as Record<Field, string>;
  for (const field of FIELDS) out[field] = (fields[field] ?? "").replace(/\r\n?/g, "\n").trim();
  return out;
}

/** URL-encodes with random (valid) variations: %20 or +, upper/lower hex, needless escapes. */
function urlEncode(random: Random, entries: [string, string][]): string {
  const plus = random.chance(0.5);
  const lowerHex = random.chance(0.3);
  const needless = random.chance(0.3);
  const encode = (value: string) => {
    let out = "";
    for (const char of value) {
      if (needless && /[a-z]/.test(char) && random.chance(0.1)) out += `%${char.charCodeAt(0).toString(16)}`;
      else if (char === " " && plus) out += "+";
      else {
        const escaped = encodeURIComponent(char);
        out += lowerHex ? escaped.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()) : escaped;
      }
    }
    return out;
  };
  return entries.map(([key, value]) => `${encode(key)}=${encode(value)}`).join("&");
}

function multipart(random: Random, parts: { name: string; value: Buffer | string; filename?: string }[]) {
  const boundary = `----fuzz${random.int(0, 1e9)}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename !== undefined ? `; filename="${part.filename}"` : ""}`;
    const type = part.filename !== undefined ? "Content-Type: application/octet-stream\r\n" : "";
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n${type}\r\n`));
    chunks.push(Buffer.isBuffer(part.value) ? part.value : Buffer.from(part.value));
    chunks.push(Buffer.from("\r\n"));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

function encodeFields(
  random: Random,
  entries: [string, string][],
): { body: Buffer | string; contentType: string } {
  if (random.chance(0.25))
    return multipart(
      random,
      entries.map(([name, value]) => ({ name, value })),
    );
  const type = random.pick([
    "application/x-www-form-urlencoded",
    "application/x-www-form-urlencoded;charset=UTF-8",
    "Application/X-WWW-Form-Urlencoded",
  ]);
  return { body: urlEncode(random, entries), contentType: type };
}

function shuffle<T>(random: Random, items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = random.int(0, i);
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

function entriesOf(
  random: Random,
  fields: Partial<Record<Field, string>>,
  extra: [string, string][] = [],
): [string, string][] {
  const entries = Object.entries(fields).filter(([, value]) => value !== undefined) as [string, string][];
  // Unknown fields are ignored by the server.
  if (random.chance(0.3))
    extra.push([
      random.pick(["utm_source", "submit", "_action", "__proto__", "constructor"]),
      words(random, 1, 2),
    ]);
  return shuffle(random, [...entries, ...extra]);
}

/** Ways a body is wrong, each with the status it must get. */
const INVALID: ((
  random: Random,
  fields: Record<Field, string>,
) => {
  fields: Partial<Record<Field, string>>;
  extra?: [string, string][];
  status: number;
  why: string;
  raw?: { body: Buffer | string; contentType: string | undefined };
})[] = [
  (_, f) => ({ fields: { ...f, name: undefined }, status: 400, why: "missing name" }),
  (r, f) => ({
    fields: { ...f, name: r.pick(["", "   ", "\t\n", "\u00a0"]) },
    status: 400,
    why: "blank name",
  }),
  (_, f) => ({ fields: { ...f, name: "N".repeat(101) }, status: 400, why: "name 101 chars" }),
  (_, f) => ({ fields: { ...f, email: undefined }, status: 400, why: "missing email" }),
  (r, f) => ({
    fields: {
      ...f,
      email: r.pick([
        "a b@example.com",
        "a@b",
        "a@@example.com",
        "a@example.com,b@example.com",
        "a@example.com;b@x.com",
        "<a@example.com>",
        '"a"@example.com',
        "plainaddress",
        "@example.com",
        "a@.com",
      ]),
    },
    status: 400,
    why: "bad email",
  }),
  (r, f) => ({
    fields: {
      ...f,
      website: r.pick([
        "example.com",
        "ftp://example.com",
        "https://localhost",
        "javascript:alert(1)",
        "http://",
        "https://exa mple.com",
      ]),
    },
    status: 400,
    why: "bad website",
  }),
  (_, f) => ({ fields: { ...f, message: undefined }, status: 400, why: "missing message" }),
  (r, f) => ({
    fields: { ...f, message: r.pick(["short", "123456789", "  nine  ch ", ""]) },
    status: 400,
    why: "short message",
  }),
  (_, f) => ({
    fields: { ...f, message: `${f.message} ${"m".repeat(2_001)}` },
    status: 400,
    why: "message > 2000",
  }),
  (r, f) => ({
    fields: { ...f, companySize: r.pick(["huge", "0", "1-11", "1000", "<script>"]) },
    status: 400,
    why: "unknown company size",
  }),
  (r, f) => ({
    fields: f,
    extra: [[r.pick(["name", "email", "message"]), "Second value here"]],
    status: 400,
    why: "repeated field",
  }),
  (_, f) => ({ fields: f, extra: [[HONEYPOT, "bot@spam"]], status: 200, why: "honeypot" }),
  (r, f) => {
    const parts = Object.entries(f).map(([name, value]) => ({
      name,
      value,
      filename: undefined as string | undefined,
    }));
    const target = r.int(0, parts.length - 1);
    parts[target] = { ...parts[target]!, filename: "evil.exe" };
    // A file given for a field that must be text.
    const { body, contentType } = multipart(r, parts);
    return { fields: f, status: 400, why: `file for ${parts[target]!.name}`, raw: { body, contentType } };
  },
  (r, f) => {
    const ct = r.pick([
      "application/json",
      "text/plain",
      "text/xml",
      "application/octet-stream",
      undefined,
      "multipart/mixed; boundary=x",
      "application/x-www-form-urlencodedx",
    ]);
    const body = ct === "application/json" ? JSON.stringify(f) : new URLSearchParams(f).toString();
    return { fields: f, status: 415, why: `content type ${ct}`, raw: { body, contentType: ct } };
  },
  (r, f) => ({
    fields: { ...f, industry: "z".repeat(r.int(17_000, 200_000)) },
    status: 413,
    why: "body over 16 KB",
  }),
];

/** Hostile noise whose outcome the test does not predict; only the invariants must hold. */
const HOSTILE: ((
  random: Random,
  fields: Record<Field, string>,
  token: string,
) => { body: Buffer | string; contentType: string | undefined; why: string })[] = [
  (r, f, token) => {
    // Invalid UTF-8 and control characters in a random field (the token stays readable in the message).
    const field = r.pick(FIELDS);
    const junk = Buffer.from([
      0xff, 0xfe, 0xc3, 0x28, 0xa0, 0xa1, 0xe2, 0x28, 0xa1, 0xf0, 0x28, 0x8c, 0xbc, 0x00, 0x01, 0x1b, 0x7f,
    ]);
    const parts = Object.entries({ ...f, message: `${token} ${f.message}` }).map(([name, value]) => ({
      name,
      value:
        name === field
          ? Buffer.concat([Buffer.from(name === "message" ? `${token} ` : ""), junk, Buffer.from(value)])
          : value,
    }));
    if (r.chance(0.5)) return { ...multipart(r, parts), why: `invalid UTF-8 in ${field} (multipart)` };
    const body = parts
      .map(
        (p) =>
          `${p.name}=${Buffer.isBuffer(p.value) ? [...p.value].map((b) => `%${b.toString(16).padStart(2, "0")}`).join("") : encodeURIComponent(p.value)}`,
      )
      .join("&");
    return { body, contentType: "application/x-www-form-urlencoded", why: `invalid UTF-8 in ${field}` };
  },
  (r, f, token) => {
    const broken = r.pick([
      "%",
      "%Z",
      "%ZZ",
      "%E0%80",
      "%%41",
      "%u0041",
      "%C0%AF",
      "%00",
      "%0d%0aSet-Cookie:%20x=1",
    ]);
    const field = r.pick(FIELDS);
    const body = Object.entries({ ...f, message: `${token} ${f.message}` })
      .map(([name, value]) => `${name}=${encodeURIComponent(value)}${name === field ? broken : ""}`)
      .join("&");
    return {
      body,
      contentType: "application/x-www-form-urlencoded",
      why: `broken percent-encoding ${broken} in ${field}`,
    };
  },
  (r, f, token) => {
    const control = String.fromCharCode(...Array.from({ length: r.int(1, 20) }, () => r.int(0, 31)));
    const field = r.pick(FIELDS);
    const fields = {
      ...f,
      message: `${token} ${f.message}`,
      [field]: `${field === "message" ? `${token} ` : ""}${control}${f[field]}${control}`,
    };
    return { ...encodeFields(r, Object.entries(fields)), why: `control characters in ${field}` };
  },
  (r, f, token) => {
    // Structural garbage: separators, empty keys, keys without values, thousands of fields.
    const noise = r.pick([
      "&&&&",
      "=&=&=",
      "name",
      "&=x",
      "a=1&a=2&a=3",
      Array.from({ length: r.int(100, 1_500) }, (_, i) => `k${i}=v`).join("&"),
    ]);
    const body = `${noise}&${new URLSearchParams({ ...f, message: `${token} ${f.message}` }).toString()}&${noise}`;
    return { body, contentType: "application/x-www-form-urlencoded", why: "structural noise" };
  },
  (r, f, token) => {
    const { body, contentType } = multipart(
      r,
      Object.entries({ ...f, message: `${token} ${f.message}` }).map(([name, value]) => ({ name, value })),
    );
    const variant = r.int(0, 3);
    if (variant === 0) return { body, contentType: "multipart/form-data", why: "multipart without boundary" };
    if (variant === 1)
      return { body, contentType: "multipart/form-data; boundary=wrong", why: "multipart wrong boundary" };
    if (variant === 2)
      return { body: body.subarray(0, r.int(1, body.length - 1)), contentType, why: "multipart truncated" };
    return {
      body: Buffer.concat([body, Buffer.from("garbage after the end")]),
      contentType,
      why: "multipart trailing garbage",
    };
  },
  (r, f, token) => {
    const bytes = Buffer.from(Array.from({ length: r.int(0, 4_000) }, () => r.int(0, 255)));
    return {
      body: Buffer.concat([Buffer.from(`message=${token}&`), bytes]),
      contentType: r.pick(["application/x-www-form-urlencoded", "multipart/form-data; boundary=abc"]),
      why: "random bytes",
    };
  },
];

function makeCase(random: Random, id: number): Case {
  const token = `fz${id.toString(36)}q${random.int(0, 1e6).toString(36)}z`;
  const fields = validFields(random, token);
  const document = id % DOCUMENT_EVERY === 0;
  // Single fetch is what the enhanced form uses, and it asks for the answer as data.
  const enhanced: [string, string][] = document ? [] : [["answer", "data"]];
  const sentStatus = document ? 303 : 200;
  const roll = random.next();
  if (roll < 0.35) {
    const { body, contentType } = encodeFields(random, entriesOf(random, fields, [...enhanced]));
    return {
      id,
      token,
      kind: "valid",
      expectStatus: sentStatus,
      expectBody: expectedBody(fields),
      document,
      body,
      contentType,
      description: "valid",
    };
  }
  if (roll < 0.7) {
    const spec = random.pick(INVALID)(random, fields);
    const { body, contentType } =
      spec.raw ?? encodeFields(random, entriesOf(random, spec.fields, [...(spec.extra ?? []), ...enhanced]));
    return {
      id,
      token,
      kind: spec.why === "honeypot" ? "honeypot" : "invalid",
      expectStatus: spec.why === "honeypot" ? sentStatus : spec.status,
      document,
      body,
      contentType,
      description: spec.why,
    };
  }
  const { body, contentType, why } = random.pick(HOSTILE)(random, fields, token);
  return { id, token, kind: "hostile", expectStatus: "any", document, body, contentType, description: why };
}

interface Outcome {
  testCase: Case;
  status: number;
  text: string;
  policy: string;
  error?: string;
}

describe("contact action under fuzzing", () => {
  const outcomes: Outcome[] = [];
  const store = leadStoreEnv();
  const app = useAppWithFunction({
    ...store,
    RATE_LIMIT_PER_CLIENT: "1000000",
    RATE_LIMIT_GLOBAL_PER_MINUTE: "2000000",
  });

  it(`survives ${COUNT} randomized and hostile bodies (seed ${SEED})`, { timeout: 240_000 }, async () => {
    console.log(`contact fuzz: ${COUNT} cases, FUZZ_SEED=${SEED}`);
    const random = createRandom(SEED);
    const cases = Array.from({ length: COUNT }, (_, id) => makeCase(random, id));
    let next = 0;
    const started = Date.now();
    // No keep-alive: a connection error is then the server's doing (a 413 may close it before the
    // whole body is sent), never a reused connection it was closing, and no request is sent twice.
    const dispatcher = new Agent({ pipelining: 0 });
    const send = async (testCase: Case) => {
      const url = testCase.document ? `${app.server.url}/?index` : `${app.server.url}/_root.data?index`;
      const headers: Record<string, string> = {};
      if (testCase.contentType !== undefined) headers["content-type"] = testCase.contentType;
      const body = typeof testCase.body === "string" ? testCase.body : Uint8Array.from(testCase.body);
      const res = await fetch(url, { method: "POST", headers, body, redirect: "manual", dispatcher });
      const text = await res.text();
      const policy = res.headers.get("content-security-policy") ?? "";
      return { testCase, status: res.status, text, policy };
    };
    const worker = async () => {
      while (next < cases.length) {
        const testCase = cases[next++]!;
        try {
          outcomes.push(await send(testCase));
        } catch (error) {
          outcomes.push({
            testCase,
            status: 0,
            text: "",
            policy: "",
            error: String((error as Error).cause ?? error),
          });
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    await dispatcher.close();
    const seconds = (Date.now() - started) / 1000;

    const byStatus = new Map<number, number>();
    for (const o of outcomes) byStatus.set(o.status, (byStatus.get(o.status) ?? 0) + 1);
    const byKind = new Map<string, number>();
    for (const o of outcomes) byKind.set(o.testCase.kind, (byKind.get(o.testCase.kind) ?? 0) + 1);
    console.log(
      `contact fuzz: ${outcomes.length} requests in ${seconds.toFixed(1)} s; by status ${JSON.stringify(Object.fromEntries(byStatus))}; by kind ${JSON.stringify(Object.fromEntries(byKind))}; function calls ${app.fake.requests.length}; no answer (connection closed) ${outcomes.filter((o) => o.status === 0).length}`,
    );

    const problems: string[] = [];
    const describeCase = (o: Outcome) =>
      `#${o.testCase.id} ${o.testCase.kind} "${o.testCase.description}" (${o.testCase.document ? "document" : "data"}) -> ${o.status}${o.error ? ` ${o.error}` : ""}`;

    const tokenOf = (message: unknown) =>
      /fz[0-9a-z]+q[0-9a-z]+z/.exec(String(message ?? ""))?.[0] ?? "(none)";
    const calls = new Map<string, Record<string, unknown>[]>();
    const keys = new Map<string, unknown[]>();
    for (const request of app.fake.requests) {
      const body = request.json as Record<string, unknown> | undefined;
      const token = tokenOf(body?.message);
      calls.set(token, [...(calls.get(token) ?? []), body ?? {}]);
      keys.set(token, [...(keys.get(token) ?? []), request.headers["idempotency-key"]]);
      if (!body || Object.keys(body).sort().join() !== [...FIELDS].sort().join())
        problems.push(`function got a malformed body: ${request.body.slice(0, 200)}`);
      else if (Object.values(body).some((value) => typeof value !== "string"))
        problems.push(`function got a non-string value: ${request.body.slice(0, 200)}`);
    }
    if (calls.has("(none)"))
      problems.push(`${calls.get("(none)")!.length} function call(s) without a case token`);

    const leads = new Map<string, LeadRow[]>();
    for (const lead of readLeads(store.LEADS_DATABASE_FILE!)) {
      const token = tokenOf(lead.message);
      leads.set(token, [...(leads.get(token) ?? []), lead]);
      const held = lead.state === "spam" && lead.attempts === 0;
      if (!held && (lead.state !== "delivered" || lead.attempts !== 1))
        problems.push(
          `a lead ${lead.state} after ${lead.attempts} attempt(s) (the function always succeeds): ${token}`,
        );
    }
    if (leads.has("(none)")) problems.push(`${leads.get("(none)")!.length} lead(s) without a case token`);

    for (const o of outcomes) {
      const { testCase } = o;
      if (o.status >= 500) problems.push(`5xx: ${describeCase(o)}`);
      if (o.status === 0 && !(testCase.expectStatus === 413)) problems.push(`no answer: ${describeCase(o)}`);
      if (
        testCase.expectStatus !== "any" &&
        o.status !== testCase.expectStatus &&
        !(o.status === 0 && testCase.expectStatus === 413)
      ) {
        problems.push(`expected ${testCase.expectStatus}: ${describeCase(o)}`);
      }
      if (o.status !== 0 && ![200, 202, 303, 400, 413, 415].includes(o.status))
        problems.push(`unexpected status: ${describeCase(o)}`);
      const made = calls.get(testCase.token) ?? [];
      const kept = leads.get(testCase.token) ?? [];
      const answeredSent = [200, 202, 303].includes(o.status);
      const heldAsSpam = answeredSent && kept.length === 1 && kept[0]?.state === "spam";
      if (testCase.kind === "honeypot" && answeredSent && !heldAsSpam)
        problems.push(`a filled honeypot not held as spam: ${describeCase(o)}`);
      const shouldCall = answeredSent && !heldAsSpam;
      if (shouldCall && made.length !== 1)
        problems.push(`reached the function ${made.length} times: ${describeCase(o)}`);
      if (!shouldCall && made.length !== 0)
        problems.push(
          `reached the function though answered ${o.status}${heldAsSpam ? " and held as spam" : ""}: ${describeCase(o)}`,
        );
      if (answeredSent && kept.length !== 1)
        problems.push(`${kept.length} leads in the store: ${describeCase(o)}`);
      if (!answeredSent && kept.length !== 0)
        problems.push(`a lead in the store though answered ${o.status}: ${describeCase(o)}`);
      if (
        shouldCall &&
        kept.length === 1 &&
        made.length === 1 &&
        keys.get(testCase.token)?.[0] !== kept[0]?.id
      )
        problems.push(`Idempotency-Key is not the lead's id: ${describeCase(o)}`);
      if (testCase.expectBody && made.length === 1) {
        try {
          expect(made[0]).toEqual(testCase.expectBody);
        } catch {
          problems.push(
            `function got different values: ${describeCase(o)}: ${JSON.stringify(made[0]).slice(0, 300)} vs ${JSON.stringify(testCase.expectBody).slice(0, 300)}`,
          );
        }
      }
      if (testCase.document && o.status === 303 && o.text !== "")
        problems.push(`a redirect with a body: ${describeCase(o)}`);
      if (testCase.document && o.status !== 0 && o.status !== 303) {
        const html = o.text;
        if (!html.includes("</html>")) problems.push(`HTML answer incomplete: ${describeCase(o)}`);
        // Data blocks (JSON-LD, the paint-first held scripts) are never run; every other script
        // must be allowed by its hash, and nothing else by a nonce.
        for (const refused of scriptsRefusedByPolicy(html, o.policy))
          problems.push(`script its policy does not allow ${refused}: ${describeCase(o)}`);
        if (o.policy.includes("'nonce-")) problems.push(`a nonce in the policy: ${describeCase(o)}`);
        if (/<[a-z][^>]*\son[a-z]+\s*=/i.test(html))
          problems.push(`inline event handler in answer: ${describeCase(o)}`);
        for (const marker of DANGEROUS)
          if (html.includes(marker)) problems.push(`unescaped "${marker}" echoed: ${describeCase(o)}`);
      }
    }
    const valid = outcomes.filter((o) => o.testCase.kind === "valid");
    console.log(
      `contact fuzz: ${valid.length} valid bodies, ${valid.filter((o) => (calls.get(o.testCase.token) ?? []).length === 1).length} reached the function exactly once; ${[...leads.values()].flat().length} leads in the store`,
    );
    expect(problems.slice(0, 30)).toEqual([]);
    expect(outcomes.length).toBe(COUNT);
    expect(valid.length).toBeGreaterThan(COUNT * 0.2);

    expect(app.server.process.exitCode).toBeNull();
    const page = await fetch(`${app.server.url}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("</html>");
    expect(app.server.output()).not.toMatch(
      /Unexpected Server Error|UnhandledPromiseRejection|uncaughtException/,
    );
  });
});
