import type { Page, Response } from "playwright-core";
import { beforeEach, expect, it } from "vitest";

import { faqs } from "~/content/faq";

import { describeBrowser, DESKTOP, PHONE, useStack } from "./support/browser";
import {
  contactValues,
  expectLandedOn,
  fillContact,
  keepTrafficLocal,
  markDocument,
  serverNotice,
  submitAndSettle,
  submitButton,
  waitForNewDocument,
} from "./support/page";
import {
  type ContactValues,
  SEND_ERROR,
  SUCCESS,
  uniqueContact,
  VALID_CONTACT,
  VALIDATION,
  VALIDATION_TITLE,
} from "./support/spec-texts";

describeBrowser("without JavaScript", () => {
  const stack = useStack();

  beforeEach(() => {
    stack.fake.reset();
  });

  async function open(options = DESKTOP): Promise<Page> {
    const context = await stack.context({ ...options, javaScriptEnabled: false });
    await keepTrafficLocal(context);
    const page = await context.newPage();
    await page.goto("/");
    return page;
  }

  /**
   * Submits and waits for the document the answer left (submitAndSettle): once the POST's response
   * arrives, the old document may still be the one on screen, so the response alone is not enough.
   */
  async function submit(page: Page): Promise<Response> {
    const response = page.waitForResponse(
      (r) => r.request().method() === "POST" && r.request().resourceType() === "document",
    );
    await submitAndSettle(page, () => submitButton(page).click());
    return response;
  }

  /** Submits, and says so plainly when the browser kept the form from being sent at all. */
  async function submitOrExplain(page: Page): Promise<Response> {
    await markDocument(page);
    const answered = page.waitForResponse(
      (r) => r.request().method() === "POST" && r.request().resourceType() === "document",
      { timeout: 10_000 },
    );
    await submitButton(page).click();
    const response = await answered.catch(() => {
      throw new Error(
        "no POST was sent: the browser's own validation blocked the form (novalidate missing?)",
      );
    });
    // The answer is in; wait for the document it left, not the one the click started from.
    await waitForNewDocument(page);
    return response;
  }

  it("contact: a valid submission is redirected (303) to the success notice (role=status) with empty fields", async () => {
    const page = await open();
    const values = uniqueContact();
    await fillContact(page, values);
    const response = await submit(page);
    expect(response.status()).toBe(303);
    await expect.poll(() => new URL(page.url()).search).toBe("?contact=sent");
    await page.waitForLoadState("domcontentloaded");
    const notice = serverNotice(page, "status", SUCCESS.title);
    expect(await notice.isVisible()).toBe(true);
    expect(await notice.innerText()).toContain(SUCCESS.text);
    const empty = Object.fromEntries(Object.keys(VALID_CONTACT).map((k) => [k, ""]));
    expect(await contactValues(page)).toEqual(empty);
    expect(stack.fake.requests).toHaveLength(1);
    expect(stack.fake.requests[0]!.json).toEqual(values);
  });

  const invalid: [string, Partial<ContactValues>, string][] = [
    ["a blank name", { name: "   " }, VALIDATION.name],
    ["an e-mail without a dot in the domain", { email: "jane@localhost" }, VALIDATION.email],
  ];
  for (const [label, change, message] of invalid) {
    it(`contact: ${label} shows the validation notice (role=alert), keeps the values, sends nothing`, async () => {
      const page = await open();
      const values = { ...VALID_CONTACT, ...change };
      await fillContact(page, values);
      const response = await submit(page);
      expect(response.status()).toBe(400);
      const notice = serverNotice(page, "alert", VALIDATION_TITLE);
      expect(await notice.isVisible()).toBe(true);
      expect(await notice.innerText()).toContain(message);
      const kept = await contactValues(page);
      // A name of spaces may come back trimmed; everything else exactly as typed.
      expect({ ...kept, name: kept.name.trim() }).toEqual({ ...values, name: values.name.trim() });
      expect(stack.fake.requests).toHaveLength(0);
    });
  }

  it("contact: the browser's own bubbles never block the form (novalidate): each rule is answered by the server's notice, in the spec's order", async () => {
    const page = await open(PHONE);
    expect(
      await page.evaluate(() => document.querySelector<HTMLFormElement>("#contact form")?.noValidate),
    ).toBe(true);
    // Every rule broken at once; then fixed one by one, each answer names the next rule in the order
    // of the spec's section 5 (name, email, website, message), and the values come back as typed.
    let values: ContactValues = {
      ...VALID_CONTACT,
      name: "",
      email: "jane@",
      website: "acme-test",
      message: "Too short",
    };
    const steps: [string, Partial<ContactValues>][] = [
      [VALIDATION.name, { name: VALID_CONTACT.name }],
      [VALIDATION.email, { email: VALID_CONTACT.email }],
      [VALIDATION.website, { website: VALID_CONTACT.website }],
      // A message no other test sent (an identical delivered request is not sent again).
      [VALIDATION.message, { message: uniqueContact().message }],
    ];
    await fillContact(page, values);
    for (const [message, fix] of steps) {
      const response = await submitOrExplain(page);
      expect(response.status(), message).toBe(400);
      const notice = serverNotice(page, "alert", VALIDATION_TITLE);
      expect(await notice.innerText(), message).toContain(message);
      expect(await contactValues(page)).toEqual(values);
      values = { ...values, ...fix };
      await fillContact(page, fix);
    }
    // The answer to a success is a redirect to the page with the notice.
    await submitOrExplain(page);
    await expect.poll(() => serverNotice(page, "status", SUCCESS.title).isVisible()).toBe(true);
    expect(stack.fake.requests.map((request) => request.json)).toEqual([values]);
  });

  it("contact: a failing function (500) shows the error notice (role=alert) and keeps every value", async () => {
    stack.fake.setMode({ kind: "status", status: 500 });
    const page = await open();
    const values = uniqueContact();
    await fillContact(page, values);
    const response = await submit(page);
    expect(response.status()).toBe(502);
    const notice = serverNotice(page, "alert", SEND_ERROR.title);
    expect(await notice.isVisible()).toBe(true);
    expect(await notice.innerText()).toContain(SEND_ERROR.text);
    expect(await contactValues(page)).toEqual(values);
    expect(stack.fake.requests).toHaveLength(1);
  });

  it("contact: a hanging function times out into the error notice with the values kept", async () => {
    stack.fake.setMode({ kind: "hang" });
    const page = await open();
    const values = uniqueContact();
    await fillContact(page, values);
    const response = await submit(page);
    expect(response.status()).toBe(504);
    const notice = serverNotice(page, "alert", SEND_ERROR.title);
    expect(await notice.innerText()).toContain(SEND_ERROR.text);
    expect(await contactValues(page)).toEqual(values);
  }, 30_000);

  for (const [size, viewport] of [
    ["desktop", DESKTOP],
    ["phone", PHONE],
  ] as const) {
    it(`contact (${size}): after submitting, the page lands on the form and its notice is in view`, async () => {
      const page = await open(viewport);
      await fillContact(page, { ...VALID_CONTACT, email: "jane@localhost" });
      await submit(page);
      expect(new URL(page.url()).hash).toBe("#contact-form");
      await expectLandedOn(page, "#contact-form");
      const notice = await page.evaluate(() => {
        const box = document.querySelector("#contact-notice")?.getBoundingClientRect();
        const header = document.querySelector("header")?.getBoundingClientRect();
        return box && header ? { top: box.top, bottom: box.bottom, headerBottom: header.bottom } : null;
      });
      expect(notice, "the notice is rendered").not.toBeNull();
      expect(notice!.top).toBeGreaterThanOrEqual(notice!.headerBottom - 1);
      expect(notice!.bottom).toBeLessThanOrEqual(viewport.viewport!.height);
    });
  }

  const menuToggle = (page: Page) =>
    page
      .locator("header")
      .locator('[aria-controls="mobile-menu"], summary')
      .filter({ visible: true })
      .first();

  it("phone: the menu opens without JavaScript; choosing a section closes it and lands on the section below the header; one tap opens it again", async () => {
    const page = await open(PHONE);
    const menu = page.locator("#mobile-menu");
    expect(await menu.isVisible()).toBe(false);
    const choices = [
      ["Reviews", "#testimonials"],
      ["Solutions", "#services"],
      ["Solutions", "#services"],
      ["Get Started", "#contact"],
    ] as const;
    for (const [label, target] of choices) {
      await menuToggle(page).click();
      expect(await menu.isVisible(), `one tap opens the menu (before choosing ${label})`).toBe(true);
      await menu.getByRole("link", { name: label, exact: true }).click();
      await expectLandedOn(page, target);
      expect(await menu.isVisible(), `the menu closed after choosing ${label}`).toBe(false);
    }
    // The toggle closes it too, without moving the page.
    await menuToggle(page).click();
    expect(await menu.isVisible()).toBe(true);
    const y = await page.evaluate(() => window.scrollY);
    await menuToggle(page).click();
    expect(await menu.isVisible()).toBe(false);
    expect(await page.evaluate(() => window.scrollY)).toBe(y);
  });

  it("phone: on the page a form answer lands on (#contact-form), the menu opens with one tap and closes on a choice", async () => {
    const page = await open(PHONE);
    await fillContact(page, { ...VALID_CONTACT, email: "jane@localhost" });
    await submit(page);
    expect(new URL(page.url()).hash).toBe("#contact-form");
    const menu = page.locator("#mobile-menu");
    await menuToggle(page).click();
    expect(await menu.isVisible()).toBe(true);
    await menu.getByRole("link", { name: "About", exact: true }).click();
    await expectLandedOn(page, "#about");
    expect(await menu.isVisible()).toBe(false);
  });

  it("FAQ: one item open at most without JavaScript (opening one closes the other, View More's too)", async () => {
    const page = await open(PHONE);
    const faq = page.locator("#faq");
    const item = (index: number) =>
      faq.locator("details[data-faq-item]").filter({ hasText: faqs[index]!.question });
    const openItems = () =>
      faq
        .locator("details[data-faq-item]")
        .evaluateAll((items) =>
          items.flatMap((el, index) => ((el as HTMLDetailsElement).open ? [index] : [])),
        );
    await item(0).locator("summary").click();
    expect(await openItems()).toEqual([0]);
    await item(1).locator("summary").click();
    expect(await openItems()).toEqual([1]);
    expect(await faq.getByText(faqs[0]!.answer).isVisible()).toBe(false);
    expect(await faq.getByText(faqs[1]!.answer).isVisible()).toBe(true);

    await faq.getByText("View More Questions").click();
    await item(5).locator("summary").click();
    expect(await openItems()).toEqual([5]);
    // Collapsible: the open one closes when chosen again.
    await item(5).locator("summary").click();
    expect(await openItems()).toEqual([]);
  });

  it("header links, testimonials and all 8 FAQ answers work without JavaScript", async () => {
    const page = await open(DESKTOP);
    await page.locator("header").first().getByRole("link", { name: "Insiders", exact: true }).click();
    await expectLandedOn(page, "#community");

    const cards = page.locator("#testimonials article[data-testimonial]");
    expect(await cards.count()).toBe(6);
    for (let i = 0; i < 6; i += 1) expect((await cards.nth(i).innerText()).length).toBeGreaterThan(40);
    expect(await page.locator("#testimonials [data-skeleton]").filter({ visible: true }).count()).toBe(0);

    const faq = page.locator("#faq");
    await faq.scrollIntoViewIfNeeded();
    for (const { question, answer } of faqs) {
      const answerText = faq.getByText(answer).first();
      if (!(await answerText.isVisible())) {
        const trigger = faq.getByText(question, { exact: true }).first();
        if (!(await trigger.isVisible())) {
          await faq.getByText("View More Questions").filter({ visible: true }).first().click();
        }
        await faq.getByText(question, { exact: true }).first().click();
      }
      expect(await answerText.isVisible(), question).toBe(true);
    }
  });
});
