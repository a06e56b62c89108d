/**
 * A press that spans hydration (issue 35), in Chromium, Firefox and WebKit: the pointer, or Space on
 * the focused control, goes down on the server's page, the page hydrates, and the press ends after.
 * The control must act exactly once (the menu open, not opened and closed again; the FAQ answer
 * open; one request). A control replaced between press and release is clicked by no one: the press
 * was on the old element, the release on the new one. The scripts are held at the server's side
 * (`startHoldingProxy`: WebKit has no network interception), so every engine runs the same steps.
 */
import { afterEach, expect, it } from "vitest";

import { faqs } from "~/content/faq";

import { describeEngines } from "./support/engines/suite";
import { faqAnswersAre, hydrated, PHONE, shownText, Visitor } from "./support/engines/visitor";
import { type HoldingProxy, startHoldingProxy } from "./support/holding-proxy";
import { SUCCESS, uniqueContact } from "./support/spec-texts";

/**
 * Resolves in the page once it has rendered two more frames and run a task after them: by then
 * every handler a press or release set off, and the render and effects that followed it, have run.
 */
function twoFramesLater(): Promise<boolean> {
  return new Promise((resolve) =>
    requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(() => resolve(true)))),
  );
}

function menuOpen(): boolean {
  const panel = document.getElementById("mobile-menu");
  const toggle = Array.from(document.querySelectorAll('header [aria-controls="mobile-menu"]')).find(
    (el) => el.getBoundingClientRect().width > 0,
  );
  return (panel?.checkVisibility() ?? false) && toggle?.getAttribute("aria-expanded") === "true";
}

const FIRST_ANSWER_OPEN = { answers: faqs.map((faq) => faq.answer), open: [0], closed: [1] };

describeEngines("a press that began before hydration acts once", ({ stack, visitor }) => {
  let proxy: HoldingProxy | null = null;
  afterEach(async () => {
    await proxy?.close();
    proxy = null;
  });

  /**
   * At a fresh proxy (a fresh origin, nothing cached) holding the scripts; returns once hydration has
   * happened under the press and every request has settled, the pointer (or key) still down.
   */
  async function pressThroughHydration(
    path: string,
    target: { selector: string; text?: string } | { press: (page: Visitor) => Promise<void> },
    before?: (page: Visitor) => Promise<void>,
    arrives?: RegExp,
  ): Promise<Visitor> {
    proxy = await startHoldingProxy(stack.app.url);
    const page = new Visitor((await visitor(true)).session, proxy.url);
    await page.open(path, PHONE);
    await before?.(page);
    expect(await page.evaluate(hydrated), "hydrated before the press").toBe(false);
    if ("press" in target) await target.press(page);
    else await page.pointerDown(target.selector, target.text ?? null);
    // The press is the first intent: the loader asks for the scripts now (if idle time has not).
    await proxy.whenHeld();
    expect(await page.evaluate(hydrated), "hydrated while the scripts were held").toBe(false);
    proxy.release();
    await page.waitFor(hydrated, undefined, "hydration");
    if (arrives) await proxy.whenServed(arrives);
    // Everything the enhancement loads after hydration (the accordion, the tooltips) arrives and
    // has its chance to change the page while the pointer is still down.
    await proxy.quiet(500);
    await page.evaluate(twoFramesLater);
    return page;
  }

  /** `check(arg)` comes true and still holds four frames later: nothing acted twice. */
  async function holdsStill<A>(
    page: Visitor,
    check: (arg: A) => boolean,
    arg: A,
    what: string,
  ): Promise<void> {
    await page.waitFor(check, arg, what, 5_000);
    for (let i = 0; i < 2; i += 1) {
      await page.evaluate(twoFramesLater);
      expect(await page.evaluate(check, arg), `${what}, two frames later`).toBe(true);
    }
  }

  it("phone: the menu's toggle opens the menu, once", async () => {
    const page = await pressThroughHydration("/", { selector: 'header [aria-controls="mobile-menu"]' });
    expect(await page.evaluate(menuOpen), "the menu open before the release").toBe(false);
    await page.pointerUp();
    await holdsStill(page, menuOpen, undefined, "the menu open");
    // JavaScript opened it, in place: no fragment navigation on top.
    expect(await page.evaluate(() => location.hash)).toBe("");
  });

  it("phone: a FAQ question opens its answer", async () => {
    // The accordion's module arrives while the pointer is down (the test waits for it).
    const page = await pressThroughHydration(
      "/#faq",
      { selector: "#faq summary", text: faqs[0]!.question },
      undefined,
      /\/faq-accordion-[^/]*\.js$/,
    );
    await page.pointerUp();
    await holdsStill(page, faqAnswersAre, FIRST_ANSWER_OPEN, "answer 1 open");
    // The accordion takes over from the open <details>, with the same item open.
    await page.waitFor(
      () => document.querySelector('#faq [data-faq-trigger="0"]')?.getAttribute("aria-expanded") === "true",
      undefined,
      "the accordion, with question 1 open",
    );
    expect(await page.evaluate(faqAnswersAre, FIRST_ANSWER_OPEN)).toBe(true);
  });

  it("phone, keyboard: Space held on a FAQ question across hydration opens its answer, once, and focus stays on it", async () => {
    const page = await pressThroughHydration(
      "/#faq",
      { press: (visitorPage) => visitorPage.keyDown("Space") },
      // Focus on the first question, as Tab leaves it (the focus is itself an intent: the loader
      // asks for the scripts, which the proxy holds).
      (visitorPage) =>
        visitorPage.evaluate(() => {
          document.querySelector<HTMLElement>('#faq [data-faq-trigger="0"], #faq summary')!.focus();
        }, undefined),
      /\/faq-accordion-[^/]*\.js$/,
    );
    expect(
      await page.evaluate(faqAnswersAre, FIRST_ANSWER_OPEN),
      "the answer open before the key's release",
    ).toBe(false);
    await page.keyUp("Space");
    await holdsStill(page, faqAnswersAre, FIRST_ANSWER_OPEN, "answer 1 open");
    // The key's element is the one that has focus still: hydration kept it, and nothing dropped focus.
    expect(
      await page.evaluate(
        () => document.activeElement?.closest("#faq") !== null && document.activeElement !== document.body,
        undefined,
      ),
      "focus still on the question",
    ).toBe(true);
    await page.waitFor(
      () => document.querySelector('#faq [data-faq-trigger="0"]')?.getAttribute("aria-expanded") === "true",
      undefined,
      "the accordion, with question 1 open",
    );
  });

  it("phone: the contact form's submit button sends the request, once", async () => {
    const contact = uniqueContact();
    const before = stack.fake.requests.length;
    const page = await pressThroughHydration(
      "/#contact",
      { selector: '#contact form button[type="submit"]' },
      // Filled as autofill would, without a key press (which would be the first intent).
      (visitorPage) =>
        visitorPage.evaluate((values) => {
          for (const [name, value] of Object.entries(values)) {
            const field = document.querySelector<HTMLInputElement>(`#contact [name="${name}"]`);
            if (field) field.value = value;
          }
        }, contact),
    );
    expect(stack.fake.requests.length - before, "nothing sent before the release").toBe(0);
    await page.pointerUp();
    await page.waitFor(shownText, { scope: "[role=region]", text: SUCCESS.title }, "the success toast");
    // At rest (the page's fetcher idle): every request the press and the release caused has been answered.
    await page.waitFor(
      () => document.querySelector('#contact form[aria-busy="false"]') !== null,
      undefined,
      "the form at rest",
    );
    const sent = stack.fake.requests
      .slice(before)
      .filter((request) => JSON.stringify(request.json).includes(contact.message));
    expect(sent.length, "requests at the function").toBe(1);
    expect(stack.fake.requests.length - before).toBe(1);
  });
});
