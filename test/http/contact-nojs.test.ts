import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";

import { contactNotices, contactValidationMessages, honeypotField } from "~/content/contact-form";
import { contactField, type ContactFieldName, type ContactFieldRow } from "~/content/contact-fields";

import { type AppServer, leadStoreEnv, startAppServer, useAppWithFunction } from "../support/app-server";
import { type LeadRow, readLeads } from "../support/leads";
import { contactRequest } from "../support/contact-request";

/** A field's messages, from its row of the field table. */
const said = (field: ContactFieldName) =>
  contactField(field).messages as Required<ContactFieldRow["messages"]>;

/**
 * The contact form without JavaScript: a browser's form-encoded POST to the built server,
 * which calls a fake `send-contact-email` on 127.0.0.1 and answers with the whole page.
 */

const ANON_KEY = "http-test-anon-key";

const baseForm = contactRequest({
  name: "Ada Lovelace",
  email: "ada@example.com",
  phone: "+1 513 555 0100",
  company: "Analytical Engines & Co",
  website: "https://example.com",
  companySize: "51-200",
  industry: "Manufacturing",
  message: "We want to automate our invoicing, <b>please</b>.",
});
// Each test sends its own request: an identical one delivered in the last 10 minutes is not sent
// again (decision 026).
let form = baseForm;
let testSerial = 0;
beforeEach(() => {
  form = { ...baseForm, message: `${baseForm.message} Test ${++testSerial}.` };
});

const escapeHtml = (value: string) =>
  value
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#x27;");

let clientCounter = 0;
/** Each test posts as its own client (TRUST_PROXY=1), so the per-client limit never mixes tests. */
const freshClient = () => `192.0.2.${++clientCounter}`;

function post(
  server: AppServer,
  body: string | FormData,
  {
    client = freshClient(),
    contentType = "application/x-www-form-urlencoded",
    headers = {} as Record<string, string>,
  } = {},
) {
  const init: RequestInit = {
    method: "POST",
    headers: {
      "x-forwarded-for": client,
      ...(typeof body === "string" ? { "content-type": contentType } : {}),
      ...headers,
    },
    body,
    redirect: "manual",
  };
  return fetch(`${server.url}/?index`, init);
}
const encode = (fields: Record<string, string> | string[][]) => new URLSearchParams(fields).toString();

/** The leads of this message in the store (a visitor's resends are the same row). */
const leadsOf = (file: string, message: string): LeadRow[] =>
  readLeads(file).filter((lead) => lead.message === message);

function control(html: string, name: string): string {
  const match = html.match(new RegExp(`<(input|textarea|select)[^>]*\\bname="${name}"[^>]*>`));
  if (!match) throw new Error(`no control named ${name}`);
  return match[0];
}
const inputValue = (html: string, name: string) => control(html, name).match(/\bvalue="([^"]*)"/)?.[1] ?? "";
const textareaValue = (html: string) =>
  html.match(/<textarea[^>]*name="message"[^>]*>([\s\S]*?)<\/textarea>/)?.[1] ?? "";
const selectedSize = (html: string) =>
  html
    .match(/<select[^>]*name="companySize"[^>]*>([\s\S]*?)<\/select>/)?.[1]
    ?.match(/<option[^>]*selected=""[^>]*value="([^"]*)"|<option value="([^"]*)" selected=""/)
    ?.slice(1)
    .find(Boolean) ?? "";
function notice(html: string) {
  const match = html.match(
    /<div id="contact-notice" role="(alert|status)"[^>]*><p[^>]*>([^<]*)<\/p><p[^>]*>([^<]*)<\/p><\/div>/,
  );
  return match ? { role: match[1], title: match[2], description: match[3] } : null;
}
const text = (html: string) =>
  html
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&");

describe("contact form without JavaScript (Supabase function)", () => {
  const store = leadStoreEnv();
  const file = store.LEADS_DATABASE_FILE!;
  const app = useAppWithFunction({
    SUPABASE_ANON_KEY: ANON_KEY,
    // Far above an answer's time on a loaded machine.
    CONTACT_FUNCTION_TIMEOUT_MS: "5000",
    TRUST_PROXY: "1",
    RATE_LIMIT_GLOBAL_PER_MINUTE: "1000",
    ...store,
  });
  afterEach(() => app.fake.reset());

  it("the page's form posts to the index action and targets the contact section", async () => {
    const html = await (await fetch(app.server.url + "/")).text();
    expect(html).toMatch(
      /<form[^>]*method="post"[^>]*action="\/\?index#contact-form"[^>]*encType="multipart\/form-data"/,
    );
    for (const name of Object.keys(form)) expect(() => control(html, name)).not.toThrow();
    const trap = control(html, honeypotField.name);
    expect(trap).toContain('tabindex="-1"');
    expect(trap).toContain('autoComplete="off"');
    expect(html).toMatch(new RegExp(`<div aria-hidden="true"[^>]*><label for="contact-hp">`));
  });

  it("success: 303 See Other to the page with the success notice, the fields empty, the exact body sent once", async () => {
    const res = await post(app.server, encode(form));
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/?contact=sent#contact-form");
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(await res.text()).toBe("");
    const page = await fetch(new URL(res.headers.get("location") ?? "", app.server.url));
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(notice(html)).toEqual({
      role: "status",
      title: contactNotices.success.title,
      description: escapeHtml(contactNotices.success.description),
    });
    expect(inputValue(html, "name")).toBe("");
    expect(inputValue(html, "email")).toBe("");
    expect(textareaValue(html)).toBe("");
    expect(app.fake.requests).toHaveLength(1);
    expect(app.fake.requests[0]?.json).toEqual(form);
    expect(app.fake.requests[0]?.headers.apikey).toBe(ANON_KEY);
    expect(app.fake.requests[0]?.headers.authorization).toBe(`Bearer ${ANON_KEY}`);
    // Committed before the call, confirmed after it; the call named the lead.
    const leads = leadsOf(file, form.message);
    expect(leads).toHaveLength(1);
    expect(leads[0]).toMatchObject({
      state: "delivered",
      attempts: 1,
      source: "form",
      name: form.name,
      email: form.email,
      company_size: form.companySize,
    });
    expect(app.fake.requests[0]?.headers["idempotency-key"]).toBe(leads[0]?.id);
    expect(leads[0]?.request_id).toBe(res.headers.get("x-request-id"));
  });

  it("validation failure: 400, the Validation Error notice, every value back, nothing sent", async () => {
    const res = await post(app.server, encode({ ...form, website: "example.com" }));
    expect(res.status).toBe(400);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const html = await res.text();
    expect(notice(html)).toEqual({
      role: "alert",
      title: "Validation Error",
      description: said("website").invalid,
    });
    expect(text(inputValue(html, "name"))).toBe(form.name);
    expect(text(inputValue(html, "email"))).toBe(form.email);
    expect(text(inputValue(html, "phone"))).toBe(form.phone);
    expect(text(inputValue(html, "company"))).toBe(form.company);
    expect(text(inputValue(html, "website"))).toBe("example.com");
    expect(text(inputValue(html, "industry"))).toBe(form.industry);
    expect(textareaValue(html)).toBe(escapeHtml(form.message));
    expect(selectedSize(html)).toBe(form.companySize);
    expect(control(html, "website")).toContain('aria-invalid="true"');
    expect(app.fake.requests).toHaveLength(0);
    // Nothing kept either: an invalid request is not a lead.
    expect(leadsOf(file, form.message)).toEqual([]);
  });

  it("a 2000-character message in a 3-byte script fits the limit as the form sends it (multipart)", async () => {
    const message = "自動化".repeat(666) + "です";
    const multipart = new FormData();
    for (const [key, value] of Object.entries({ ...form, name: "山田 花子".repeat(20), message }))
      multipart.set(key, value);
    const res = await post(app.server, multipart);
    expect(res.status).toBe(303);
    expect((app.fake.requests[0]?.json as { message: string }).message).toBe(message);
  });

  it("function failure: 502, the error notice, every value back", async () => {
    app.fake.setMode({ kind: "status", status: 500 });
    const res = await post(app.server, encode(form));
    expect(res.status).toBe(502);
    const html = await res.text();
    expect(notice(html)).toEqual({ role: "alert", ...contactNotices.sendFailed });
    expect(text(inputValue(html, "name"))).toBe(form.name);
    expect(textareaValue(html)).toBe(escapeHtml(form.message));
    expect(selectedSize(html)).toBe(form.companySize);
    // Logged with the function's status, without personal data (what is kept: lead-delivery.test.ts).
    const log = app.server
      .output()
      .split("\n")
      .filter((line) => line.includes('"result":"send-failed"'));
    expect(log.length).toBeGreaterThan(0);
    for (const line of log) {
      expect(JSON.parse(line)).toMatchObject({ sink: "supabase", keptIn: "store", functionStatus: 500 });
      expect(line).not.toContain(form.email);
      expect(line).not.toContain(form.name);
    }
  });

  it("function rejecting the request (4xx): 502 and the error notice", async () => {
    app.fake.setMode({ kind: "status", status: 422 });
    const res = await post(app.server, encode(form));
    expect(res.status).toBe(502);
    expect(notice(await res.text())).toEqual({ role: "alert", ...contactNotices.sendFailed });
    expect(leadsOf(file, form.message)).toMatchObject([{ state: "pending", last_status: 422 }]);
  });

  it("escapes markup typed into the fields", async () => {
    const res = await post(
      app.server,
      encode({ ...form, name: '"><script>alert(1)</script>', email: "bad" }),
    );
    const html = await res.text();
    expect(res.status).toBe(400);
    expect(html).not.toContain("<script>alert(1)</script>");
  });

  it("honeypot filled: told it was sent (the same redirect), nothing sent, kept as spam, counted in the log", async () => {
    const res = await post(app.server, encode({ ...form, [honeypotField.name]: "buy now" }));
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/?contact=sent#contact-form");
    expect(app.fake.requests).toHaveLength(0);
    // The message's <b> is a signal too (markup), one a person may send: alone it holds nothing.
    expect(leadsOf(file, form.message)).toMatchObject([{ state: "spam", spam_signals: "honeypot,markup" }]);
    await expect
      .poll(() => app.server.output())
      .toContain('"result":"spam","spamSignals":["honeypot","markup"]');
  });

  it("rate limit: the 6th valid submission from one client in 10 minutes gets 429 with Retry-After", async () => {
    const client = freshClient();
    for (let i = 0; i < 5; i++) {
      const other = { ...form, message: `${form.message} Request ${i}.` };
      expect((await post(app.server, encode(other), { client })).status).toBe(303);
    }
    const res = await post(app.server, encode(form), { client });
    expect(res.status).toBe(429);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(500);
    const html = await res.text();
    expect(notice(html)).toEqual({ role: "alert", ...contactNotices.tooManyRequests });
    expect(text(inputValue(html, "name"))).toBe(form.name);
    expect(app.fake.requests).toHaveLength(5);
    // The refused one is not kept: the visitor was told to try later.
    expect(leadsOf(file, form.message)).toEqual([]);
  });

  it("refuses a body over 16 KB with 413, declared or not", async () => {
    const big = encode({ ...form, message: "m".repeat(17 * 1024) });
    const declared = await post(app.server, big);
    expect(declared.status).toBe(413);
    // The answer arrives whole (the rest of the body is discarded, not left to reset the socket).
    const html = await declared.text();
    expect(html).toContain("</html>");
    expect(notice(html)).toMatchObject({ role: "alert", description: contactNotices.tooLarge.description });
    // Chunked: no Content-Length, the app.server counts while reading.
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 40; i++) controller.enqueue(new TextEncoder().encode("m".repeat(1024)));
        controller.close();
      },
    });
    const res = await fetch(`${app.server.url}/?index`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": freshClient() },
      body: stream,
      duplex: "half",
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(app.fake.requests).toHaveLength(0);
  });

  it("refuses other encodings with 415, naming those it reads (Accept)", async () => {
    const res = await post(app.server, JSON.stringify(form), { contentType: "application/json" });
    expect(res.status).toBe(415);
    expect(res.headers.get("accept")).toContain("application/x-www-form-urlencoded");
    expect((await post(app.server, encode(form), { contentType: "text/plain" })).status).toBe(415);
    expect(app.fake.requests).toHaveLength(0);
  });

  it("treats a repeated field or a file as a validation error; accepts multipart text", async () => {
    const repeated = await post(app.server, encode([...Object.entries(form), ["name", "Eve"]]));
    expect(repeated.status).toBe(400);
    expect(notice(await repeated.text())?.description).toBe(contactValidationMessages.notText);

    const withFile = new FormData();
    for (const [key, value] of Object.entries(form)) withFile.set(key, value);
    withFile.set("company", new Blob(["x"]), "company.txt");
    const file = await post(app.server, withFile);
    expect(file.status).toBe(400);

    const multipart = new FormData();
    for (const [key, value] of Object.entries(form)) multipart.set(key, value);
    multipart.set("unknown", "ignored");
    expect((await post(app.server, multipart)).status).toBe(303);
    expect(app.fake.requests.map((request) => request.json)).toEqual([form]);
  });

  it("other methods to the action get 405 with Allow", async () => {
    const res = await fetch(`${app.server.url}/?index`, {
      method: "PUT",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: encode(form),
    });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET, HEAD, POST");
    const options = await fetch(`${app.server.url}/?index`, { method: "OPTIONS" });
    expect(options.status).toBe(405);
    expect(options.headers.get("allow")).toBe("GET, HEAD, POST");
    expect(app.fake.requests).toHaveLength(0);
  });
});

describe("contact form without JavaScript (the store as the inbox, no Supabase)", () => {
  let dir: string;
  let file: string;
  let server: AppServer;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "contact-http-inbox-"));
    const store = leadStoreEnv(dir);
    file = store.LEADS_DATABASE_FILE!;
    server = await startAppServer({
      ...store,
      // Every submission comes from 127.0.0.1 (no trusted proxy): one client.
      RATE_LIMIT_PER_CLIENT: "100",
      RATE_LIMIT_GLOBAL_PER_MINUTE: "1000",
    });
  });
  afterAll(async () => {
    await server?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it("keeps exactly one whole lead per request, also under 50 concurrent submissions", async () => {
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        post(server, encode({ ...form, name: `Visitor ${i}`, message: `${form.message} #${i}` })),
      ),
    );
    expect(answers.map((res) => res.status)).toEqual(Array(50).fill(303));
    await Promise.all(answers.map((res) => res.arrayBuffer()));
    const leads = readLeads(file).filter((lead) => lead.message.startsWith(form.message));
    expect(leads).toHaveLength(50);
    expect(leads.map((lead) => lead.name).sort()).toEqual(
      Array.from({ length: 50 }, (_, i) => `Visitor ${i}`).sort(),
    );
    expect(new Set(leads.map((lead) => lead.id)).size).toBe(50);
    for (const lead of leads) {
      expect(lead).toMatchObject({ state: "inbox", attempts: 0, source: "form" });
      expect(lead.received_at).toBeGreaterThan(Date.now() - 600_000);
      expect(lead.message).toBe(`${form.message} #${lead.name.replace("Visitor ", "")}`);
      expect({
        email: lead.email,
        phone: lead.phone,
        company: lead.company,
        website: lead.website,
        companySize: lead.company_size,
        industry: lead.industry,
      }).toEqual({
        email: form.email,
        phone: form.phone,
        company: form.company,
        website: form.website,
        companySize: form.companySize,
        industry: form.industry,
      });
    }
    const logged = server
      .output()
      .split("\n")
      .filter((line) => line.includes('"event":"contact_submission"') && line.includes('"result":"sent"'));
    expect(logged).toHaveLength(50);
    for (const line of logged) expect(JSON.parse(line)).toMatchObject({ status: 303, sink: "inbox" });
  });
});
