import { beforeEach, describe, expect, it } from "vitest";

import { honeypotField, typingTimeField } from "~/content/contact-form";
import { answerAsDataField } from "~/lib/contact/answer";

import { type AppServer, leadStoreEnv, useAppWithFunction } from "../support/app-server";
import { readLeads } from "../support/leads";
import { contactRequest } from "../support/contact-request";

/**
 * Spam held, never sent, never lost (issue 41, decision 042), posted to the built server: a held
 * submission is answered exactly like a sent one and never reaches the function (what ops then do
 * with it: test/cli/leads.test.ts); real leads that resemble spam in one way reach it once.
 */

let serial = 0;
const person = (overrides: Record<string, string> = {}) =>
  contactRequest({
    name: "Jane Smith",
    email: `jane${++serial}@acme.example`,
    company: "Acme Logistics",
    message: `We copy orders by hand between two systems, request ${serial}.`,
    ...overrides,
  });

/** Without JavaScript: the browser's form post, answered by a redirect (not followed). */
const postAsDocument = (server: AppServer, fields: Record<string, string>) =>
  fetch(`${server.url}/?index`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
    redirect: "manual",
  });

/** With JavaScript: the enhanced form's multipart post, asking for its answer as data. */
function postAsEnhanced(server: AppServer, fields: Record<string, string>) {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) body.set(name, value);
  body.set(answerAsDataField.name, answerAsDataField.value);
  return fetch(`${server.url}/?index`, { method: "POST", body });
}

describe("spam held, never sent, never lost (issue 41)", () => {
  const store = leadStoreEnv();
  const file = store.LEADS_DATABASE_FILE!;
  const app = useAppWithFunction({
    RATE_LIMIT_PER_CLIENT: "50",
    // The dispatcher must not retry behind the test's back.
    CONTACT_RETRY_INITIAL_SECONDS: "3600",
    ...store,
  });
  beforeEach(() => app.fake.reset());
  const callsFor = (email: string) =>
    app.fake.requests.filter((call) => (call.json as { email?: string }).email === email);

  it("link spam and a filled honeypot are answered as sent, never reach the function, and are held as spam with their signals", async () => {
    const linkSpam = person({
      name: "SEO Expert",
      message: "Cheap backlinks https://a.example https://b.example https://c.example https://d.example",
    });
    const trapped = person({ name: "Autofilled Person" });

    const noJs = await postAsDocument(app.server, linkSpam);
    expect(noJs.status).toBe(303);
    expect(noJs.headers.get("location")).toBe("/?contact=sent#contact-form");
    const enhanced = await postAsEnhanced(app.server, { ...trapped, [honeypotField.name]: "REF-2041" });
    expect(enhanced.status).toBe(200);
    // What a real success answers, word for word: a bot learns nothing.
    const real = await postAsEnhanced(app.server, person());
    expect(await enhanced.text()).toBe(await real.text());
    expect(app.fake.requests).toHaveLength(1);
    expect(callsFor(linkSpam.email)).toEqual([]);
    expect(callsFor(trapped.email)).toEqual([]);

    // Held with the signals that held them: what `npm run leads -- list --spam` shows.
    const held = readLeads(file)
      .filter((lead) => lead.state === "spam")
      .map((lead) => [lead.name, lead.spam_signals])
      .sort();
    expect(held).toEqual([
      ["Autofilled Person", expect.stringContaining("honeypot")],
      ["SEO Expert", expect.stringContaining("links")],
    ]);
  });

  const realLeads: [string, Record<string, string>, "document" | "enhanced"][] = [
    [
      "a link to the visitor's own site",
      { website: "https://acme.example", message: "Our shop https://acme.example/shop needs order sync." },
      "enhanced",
    ],
    [
      "a message in another language",
      { message: "Wir möchten unsere Rechnungsprüfung automatisieren." },
      "enhanced",
    ],
    [
      "a name in another script",
      { name: "Анна Каренина", message: "Нужна автоматизация отчётов, пожалуйста." },
      "enhanced",
    ],
    ["a name in Chinese", { name: "王小明", message: "我们想自动化客户服务流程，谢谢。" }, "document"],
    ["a short message", { message: "Call me back" }, "enhanced"],
    ["no JavaScript", {}, "document"],
    [
      "a message pasted at once and sent 1.2 s after the first keystroke",
      { [typingTimeField.name]: "1200" },
      "enhanced",
    ],
  ];
  it.each(realLeads)(
    "a real lead is never held: %s (reaches the function once)",
    async (_, overrides, how) => {
      const lead = person(overrides);
      const res =
        how === "document" ? await postAsDocument(app.server, lead) : await postAsEnhanced(app.server, lead);
      expect(res.status).toBe(how === "document" ? 303 : 200);
      expect(callsFor(lead.email)).toHaveLength(1);
      expect(readLeads(file).filter((row) => row.email === lead.email)).toMatchObject([
        { state: "delivered" },
      ]);
    },
  );
});
