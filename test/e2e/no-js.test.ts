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

  it("contact: a failing function (500), then a hanging one (timed out), each answered by the error notice (role=alert) with every value kept", async () => {
    stack.fake.setMode({ kind: "status", status: 500 });
    const page = await open();
    const values = uniqueContact();
    await fillContact(page, values);
    expect((await submit(page)).status()).toBe(502);
    const notice = serverNotice(page, "alert", SEND_ERROR.title);
    expect(await notice.isVisible()).toBe(true);
    expect(await notice.innerText()).toContain(SEND_ERROR.text);
    expect(await contactValues(page)).toEqual(values);
    expect(stack.fake.requests).toHaveLength(1);

    stack.fake.setMode({ kind: "hang" });
    const again = uniqueContact();
    await fillContact(page, again);
    expect((await submit(page)).status()).toBe(504);
    expect(await serverNotice(page, "alert", SEND_ERROR.title).innerText()).toContain(SEND_ERROR.text);
    expect(await contactValues(page)).toEqual(again);
  }, 45_000);

  const menuToggle = (page: Page) =>
    page
      .locator("header")
      .locator('[aria-controls="mobile-menu"], summary')
      .filter({ visible: true })
      .first();

  for (const [size, viewport] of [
    ["desktop", DESKTOP],
    ["phone", PHONE],
  ] as const) {
    it(`contact (${size}): after submitting, the page lands on the form and its notice is in view${size === "phone" ? "; there the menu opens with one tap and closes on a choice" : ""}`, async () => {
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
      if (size === "desktop") return;

      const menu = page.locator("#mobile-menu");
      await menuToggle(page).click();
      expect(await menu.isVisible()).toBe(true);
      await menu.getByRole("link", { name: "About", exact: true }).click();
      await expectLandedOn(page, "#about");
      expect(await menu.isVisible()).toBe(false);
    });
  }

  it("testimonials and all 8 FAQ answers work without JavaScript", async () => {
    const page = await open(DESKTOP);
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
