import { describe, expect, it } from "vitest";

import {
  countLinks,
  FAST_SUBMIT_MS,
  SPAM_SIGNALS,
  SPAM_THRESHOLD,
  spamSignals,
  spamVerdict,
  typingMsFrom,
} from "~/lib/contact/spam";
import type { ContactRequest } from "~/lib/contact/schema";
import { contactRequest } from "../../support/contact-request";

/** The rules of decision 042: which signals a valid submission shows, and which of them hold it. */

const lead = (overrides: Partial<ContactRequest> = {}): ContactRequest =>
  contactRequest({
    name: "Jane Smith",
    email: "jane@acme.example",
    phone: "+1 513 555 0100",
    company: "Acme Logistics",
    website: "https://acme.example",
    companySize: "11-50",
    industry: "Logistics",
    message: "We spend two days a week copying orders between our shop and our ERP. Can you help?",
    ...overrides,
  });

describe("each signal", () => {
  it.each<[string, Partial<ContactRequest>, { honeypot?: string; typingMs?: number }, string[]]>([
    ["the honeypot filled", {}, { honeypot: "ref-2041" }, ["honeypot"]],
    ["the honeypot holding only spaces (not filled)", {}, { honeypot: "   " }, []],
    [
      "three links",
      { message: "See https://a.example, http://b.example and www.c.example for prices." },
      {},
      ["links"],
    ],
    ["HTML", { message: 'Great <a href="https://x.example">offer</a> for you.' }, {}, ["markup"]],
    ["BBCode", { message: "Great [url=https://x.example]offer[/url] for you." }, {}, ["markup"]],
    ["a URL shortener in the message", { message: "Look at this: bit.ly/3xYz please." }, {}, ["shortener"]],
    ["a URL shortener as the website", { website: "https://tinyurl.com/abcd" }, {}, ["shortener"]],
    ["a name that is a URL", { name: "https://cheap-pills.example" }, {}, ["name-is-url"]],
    ["a name that is a host", { name: "cheap-pills.com" }, {}, ["name-is-url"]],
    [
      "three identical fields",
      { name: "qwerty", company: "QWERTY", industry: "qwerty ", message: "qwerty" + " ".repeat(10) + "x" },
      {},
      ["identical-fields"],
    ],
    ["a submit 1 s after the first keystroke", {}, { typingMs: 1_000 }, ["fast-submit"]],
    ["a submit just at the limit", {}, { typingMs: FAST_SUBMIT_MS }, []],
  ])("%s", (_, overrides, clues, expected) => {
    expect(spamSignals(lead(overrides), clues)).toEqual(expected);
  });

  it("counts links with a scheme or www., not bare words with a dot", () => {
    expect(countLinks("Visit acme.example or https://acme.example or www.acme.example")).toBe(2);
    expect(countLinks("Version 2.0, e.g. this, i.e. that")).toBe(0);
  });
});

describe("the threshold", () => {
  it("only the honeypot and more than two links hold on their own; every other signal takes a second", () => {
    const alone = Object.entries(SPAM_SIGNALS)
      .filter(([, weight]) => weight >= SPAM_THRESHOLD)
      .map(([signal]) => signal)
      .sort();
    expect(alone).toEqual(["honeypot", "links"]);
    expect(spamVerdict(lead({ name: "cheap-pills.com" }), { typingMs: 500 })).toEqual({
      spam: true,
      score: 4,
      signals: ["name-is-url", "fast-submit"],
    });
  });

  it("link spam is held; a filled honeypot is held", () => {
    const linkSpam = lead({
      name: "Best SEO",
      message: "Buy backlinks: https://a.example https://b.example https://c.example https://d.example",
    });
    expect(spamVerdict(linkSpam).spam).toBe(true);
    expect(spamVerdict(lead(), { honeypot: "autofilled" }).spam).toBe(true);
  });
});

describe("real leads are never held", () => {
  const fast = { typingMs: 1_500 };
  it.each<[string, Partial<ContactRequest>, { typingMs?: number }]>([
    [
      "a link to the visitor's own site",
      { message: "Our shop is https://acme.example/shop, orders pile up." },
      {},
    ],
    ["two links", { message: "Compare https://acme.example with https://rival.example please." }, {}],
    ["a message in German", { message: "Wir möchten unsere Rechnungsprüfung automatisieren." }, {}],
    ["a message in Japanese", { message: "請求書の処理を自動化したいです。よろしくお願いします。" }, {}],
    ["a name in Cyrillic", { name: "Анна Каренина", message: "Нужна автоматизация отчётов." }, {}],
    ["a name in Arabic", { name: "فاطمة الزهراء", message: "نريد أتمتة خدمة العملاء لدينا." }, {}],
    ["a name in Chinese", { name: "王小明", message: "我们想自动化客户服务流程。" }, {}],
    ["a name with dots", { name: "J.R.R. Tolkien" }, {}],
    ["a name like an address", { name: "Dr.Smith" }, {}],
    ["the shortest message", { message: "Help, pls!" }, {}],
    ["a short message sent fast", { message: "Call me back" }, fast],
    ["a message pasted at once, then sent", {}, fast],
    ["a message with a tag quoted from their site", { message: "Our page shows <br> literally, fix?" }, {}],
    ["a sole trader whose company is their name", { company: "Jane Smith" }, {}],
    ["no JavaScript (no typing time at all)", { name: "acme.com" }, {}],
  ])("%s", (_, overrides, clues) => {
    expect(spamVerdict(lead(overrides), clues).spam).toBe(false);
  });
});

describe("the typing time the form sends", () => {
  it("counts only whole milliseconds up to a day; anything else is no timing, never a signal", () => {
    expect(typingMsFrom("2999")).toBe(2999);
    expect(typingMsFrom("0")).toBe(0);
    for (const value of [undefined, "", "-5", "1e3", "3.5", " 12", "86400001", ["100"], 100])
      expect(typingMsFrom(value)).toBeUndefined();
  });
});
