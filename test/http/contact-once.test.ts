import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

import { contactNotices } from "~/content/contact-form";
import { contactField, type ContactFieldName, type ContactFieldRow } from "~/content/contact-fields";

import { type AppServer, leadStoreEnv, startAppServer, useAppWithFunction } from "../support/app-server";
import { type LeadRow, readLeads } from "../support/leads";
import { contactRequest } from "../support/contact-request";

/** A field's messages, from its row of the field table. */
const said = (field: ContactFieldName) =>
  contactField(field).messages as Required<ContactFieldRow["messages"]>;

/**
 * Every lead exactly once, as the server meets it (decision 026): a no-JavaScript success is a
 * redirect to a fixed page, an identical request is never sent twice, spam is held and never sent,
 * and a one-line field cannot carry a second line. TRUST_PROXY=0: every post here is one client
 * (127.0.0.1), so its limit is raised to 50.
 */

const SENT_LOCATION = "/?contact=sent#contact-form";

let serial = 0;
/** A request no other test sends. */
const fresh = () =>
  contactRequest({
    name: "Grace Hopper",
    email: "grace@example.com",
    message: `Please automate our compiler invoices, request ${++serial} of ${process.pid}.`,
  });

const post = (server: AppServer, fields: Record<string, string>) =>
  fetch(`${server.url}/?index`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
    redirect: "manual",
  });

/** The result logged for one answer (by X-Request-Id); waits, as the log may trail the answer. */
async function loggedResult(server: AppServer, res: Response): Promise<string> {
  const id = res.headers.get("x-request-id");
  expect(id).toBeTruthy();
  let result: string | undefined;
  await vi.waitFor(
    () => {
      const line = server
        .output()
        .split("\n")
        .find((l) => l.includes('"event":"contact_submission"') && l.includes(`"requestId":"${id}"`));
      expect(line, `no contact_submission line for ${id}`).toBeDefined();
      result = (JSON.parse(line!.slice(line!.indexOf("{"))) as { result: string }).result;
    },
    { timeout: 5_000, interval: 20 },
  );
  return result!;
}

/** The leads of this request in the store: the same e-mail (any case) and message is the same lead. */
const leadsOf = (file: string, form: Record<string, string>): LeadRow[] =>
  readLeads(file).filter((lead) => lead.message === form.message);

const noticeOf = (html: string) =>
  html
    .match(/<div id="contact-notice" role="(alert|status)"[^>]*><p[^>]*>([^<]*)<\/p><p[^>]*>([^<]*)<\/p>/)
    ?.slice(1);

describe("every lead exactly once (Supabase function)", () => {
  const store = leadStoreEnv();
  const file = store.LEADS_DATABASE_FILE!;
  const app = useAppWithFunction({
    CONTACT_FUNCTION_TIMEOUT_MS: "3000",
    RATE_LIMIT_PER_CLIENT: "50",
    ...store,
  });
  beforeEach(() => app.fake.reset());

  it("two identical POSTs in a row: one function call, both redirected to the success page, one duplicate logged", async () => {
    const form = fresh();
    const first = await post(app.server, form);
    const second = await post(app.server, { ...form, email: form.email.toUpperCase() });
    for (const res of [first, second]) {
      expect(res.status).toBe(303);
      expect(res.headers.get("location")).toBe(SENT_LOCATION);
    }
    expect(app.fake.requests).toHaveLength(1);
    expect([await loggedResult(app.server, first), await loggedResult(app.server, second)]).toEqual([
      "sent",
      "duplicate",
    ]);
    const leads = leadsOf(file, form);
    expect(leads).toMatchObject([{ state: "delivered", attempts: 1, email: form.email }]);
    expect(app.fake.requests[0]?.headers["idempotency-key"]).toBe(leads[0]?.id);
  });

  // The second waits for the first's outcome instead of becoming a second lead or a second call.
  for (const [when, told, mode, status, logged, state] of [
    ["slow", "success", { kind: "slow", delayMs: 400 }, 303, "sent", "delivered"],
    ["failing", "it failed", { kind: "status", status: 500, delayMs: 400 }, 502, "send-failed", "pending"],
  ] as const)
    it(`two identical POSTs at once (a double click), the function ${when}: one call, both told ${told}, one ${state} lead`, async () => {
      app.fake.setMode(mode);
      const form = fresh();
      const answers = await Promise.all([post(app.server, form), post(app.server, form)]);
      expect(answers.map((res) => res.status)).toEqual([status, status]);
      expect(app.fake.requests).toHaveLength(1);
      const results = await Promise.all(answers.map((res) => loggedResult(app.server, res)));
      expect(results.sort()).toEqual(["duplicate", logged]);
      const leads = leadsOf(file, form);
      expect(leads).toMatchObject([{ state, attempts: 1 }]);
      expect(app.fake.requests[0]?.headers["idempotency-key"]).toBe(leads[0]?.id);
    });

  // Each kind of character a one-line field refuses, in one field each: which field refuses which
  // character is the schema's rule (test/lib/contact/schema.test.ts, every field of the table).
  const valid = { name: "Ali Baba", company: "Acme", website: "https://example.com" };
  for (const [field, label, char] of [
    ["name", "CR LF", "\r\n"],
    ["company", "a bidi override", "\u202E"],
    ["website", "NUL", "\u0000"],
  ] as const) {
    it(`${field} with ${label} inside: 400, the Validation Error notice, nothing sent`, async () => {
      const value = valid[field];
      const smuggled = `${value.slice(0, 3)}${char}Bcc: x@evil.example${value.slice(3)}`;
      const res = await post(app.server, { ...fresh(), ...valid, [field]: smuggled });
      expect(res.status).toBe(400);
      const [role, title, description] = noticeOf(await res.text()) ?? [];
      expect(role).toBe("alert");
      expect(title).toBe(contactNotices.validationTitle);
      expect(description).toBe(said(field).notOneLine);
      expect(app.fake.requests).toHaveLength(0);
      expect(readLeads(file).some((lead) => JSON.stringify(lead).includes("evil.example"))).toBe(false);
    });
  }

  for (const [label, char] of [
    ["NUL", "\u0000"],
    ["an escape", "\u001b"],
    ["a C1 control", "\u0085"],
  ] as const) {
    it(`the message with ${label} inside: 400, the Validation Error notice, nothing sent or kept`, async () => {
      const message = `Please automate${char} our invoicing, evil.example`;
      const res = await post(app.server, { ...fresh(), ...valid, message });
      expect(res.status).toBe(400);
      const [role, title, description] = noticeOf(await res.text()) ?? [];
      expect(role).toBe("alert");
      expect(title).toBe(contactNotices.validationTitle);
      expect(description).toBe(said("message").control);
      expect(app.fake.requests).toHaveLength(0);
      expect(readLeads(file).some((lead) => JSON.stringify(lead).includes("evil.example"))).toBe(false);
    });
  }
});

describe("every lead exactly once (the store as the inbox)", () => {
  let dir: string;
  let file: string;
  let server: AppServer;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "contact-once-"));
    const store = leadStoreEnv(dir);
    file = store.LEADS_DATABASE_FILE!;
    server = await startAppServer(store);
  });
  afterAll(async () => {
    await server?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it("a POST, a reload of it and a second tab at once: one inbox lead", async () => {
    const form = fresh();
    const answers = await Promise.all([post(server, form), post(server, form)]);
    answers.push(await post(server, { ...form, email: form.email.toUpperCase() }));
    expect(answers.map((res) => res.status)).toEqual([303, 303, 303]);
    const leads = readLeads(file);
    expect(leads).toHaveLength(1);
    expect(leads[0]).toMatchObject({ state: "inbox", attempts: 0, email: form.email, message: form.message });
    const results = await Promise.all(answers.map((res) => loggedResult(server, res)));
    expect(results.sort()).toEqual(["duplicate", "duplicate", "sent"]);
    expect(server.output()).toMatch(/"result":"duplicate","sink":"inbox"/);
  });
});
