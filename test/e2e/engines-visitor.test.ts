/**
 * What a visitor does, in the three engines they use (issue 25): the header's links and the phone
 * menu, the FAQ, the contact form with JavaScript on and off (its notices, and where focus lands),
 * the 404, and a press that spans hydration. Written once against `Visitor`; the Chromium-only
 * suites beside it go deeper where only Chromium's protocol reaches (network interception, touch,
 * axe).
 */
import { afterEach, describe, expect, it } from "vitest";

import { faqs } from "~/content/faq";
import { headerLinks } from "~/content/navigation";

import type { Viewport } from "./support/engines/driver";
import { describeEngines } from "./support/engines/suite";
import {
  DESKTOP,
  faqAnswersAre,
  hydrated,
  PHONE,
  shownText,
  SIZES,
  Visitor,
} from "./support/engines/visitor";
import { type HoldingProxy, startHoldingProxy } from "./support/holding-proxy";
import { SUCCESS, uniqueContact, VALIDATION, VALIDATION_TITLE } from "./support/spec-texts";

/**
 * Where an element (with its label, `withLabel`) is against the fixed header, the viewport and (when
 * shown) a toast, and whether it is focused and fully on screen, clear of them (`clear`). With
 * `onlyClear`, null until it is.
 */
function placeOf({
  selector,
  withLabel,
  onlyClear,
}: {
  selector: string;
  withLabel: boolean;
  onlyClear?: boolean;
}) {
  const element = document.querySelector(selector);
  if (!element) return null;
  const block = (
    withLabel ? (element.closest("div:has(> label)") ?? element) : element
  ).getBoundingClientRect();
  const header = Array.from(document.querySelectorAll("header")).find(
    (el) => getComputedStyle(el).position === "fixed",
  );
  // The toast region holds a list of toasts (the reviews' region holds a list of cards, not an ol).
  const toast = Array.from(document.querySelectorAll("[role=region] > ol > li")).find(
    (el) => el.getBoundingClientRect().height > 0,
  );
  const toastBox = toast?.getBoundingClientRect();
  const place = {
    focused: document.activeElement === element,
    // For the person reading a failure: WebKit's window on Xvfb never has it (no window manager),
    // and reveals the field all the same.
    windowFocused: document.hasFocus(),
    top: Math.round(block.top),
    bottom: Math.round(block.bottom),
    headerBottom: Math.round(header?.getBoundingClientRect().bottom ?? 0),
    viewportHeight: window.innerHeight,
    toast: toastBox ? { top: Math.round(toastBox.top), bottom: Math.round(toastBox.bottom) } : null,
  };
  const clear =
    place.focused &&
    place.top >= place.headerBottom &&
    place.bottom <= place.viewportHeight &&
    (!place.toast || place.bottom <= place.toast.top || place.top >= place.toast.bottom);
  return onlyClear && !clear ? null : place;
}

type Place = NonNullable<ReturnType<typeof placeOf>>;

/**
 * WebKit reveals the field at its next rendering update, after the WebDriver action has returned,
 * so waiting for the scroll to hold still can measure before the reveal begins. This waits for the
 * place the visitor ends up seeing, then checks it whole; a page that never reveals it still fails.
 */
async function expectComesIntoClearView(
  page: Visitor,
  target: { selector: string; withLabel: boolean },
  what: string,
): Promise<void> {
  // Past the wait's limit (a page that never reveals it), the check below says what was seen.
  await page.waitFor(placeOf, { ...target, onlyClear: true }, `${what} in clear view`).catch(() => null);
  await page.settleScroll();
  expectInClearView(await page.evaluate(placeOf, target), what);
}

function expectInClearView(place: Place | null, what: string): void {
  expect(place, what).not.toBeNull();
  const summary = `${what}: ${JSON.stringify(place)}`;
  expect(place!.focused, summary).toBe(true);
  expect(place!.top, `below the header: ${summary}`).toBeGreaterThanOrEqual(place!.headerBottom);
  expect(place!.bottom, `above the bottom edge: ${summary}`).toBeLessThanOrEqual(place!.viewportHeight);
  if (place!.toast)
    expect(
      place!.bottom <= place!.toast.top || place!.top >= place!.toast.bottom,
      `clear of the toast: ${summary}`,
    ).toBe(true);
}

const ANSWERS = faqs.map((faq) => faq.answer);
const FIRST_ANSWER_OPEN = { answers: ANSWERS, open: [0], closed: [1] };

function watchPageErrors(): void {
  const heard: string[] = [];
  Object.assign(window, { pageErrors: heard });
  window.addEventListener("error", (event) => heard.push(`pageerror: ${event.message}`));
  window.addEventListener("unhandledrejection", (event) =>
    heard.push(`unhandled rejection: ${String(event.reason)}`),
  );
}

function menuShown(shown: boolean): boolean {
  return (document.getElementById("mobile-menu")?.checkVisibility() ?? false) === shown;
}

async function waitForShown(page: Visitor, scope: string, text: string): Promise<void> {
  await page.waitFor(shownText, { scope, text }, `"${text}" shown in ${scope}`);
}

/**
 * Waits until a visitor could act: taken over (with JavaScript) and at rest on the section. Without
 * JavaScript WebKit may begin the stylesheet's glide to the #fragment after the load event, and a
 * click aimed before it began lands on whatever the glide brings under the pointer.
 */
async function openAt(page: Visitor, id: string, viewport: Viewport): Promise<void> {
  await page.open(`/#${id}`, viewport);
  if (page.javaScript) await page.waitForEnhancement();
  await page.waitForLanding(id);
}

/**
 * `top` is from the viewport's top (negative: from its bottom). Within a pixel: positions can be
 * fractional, and scrolling moves by whole pixels. Focus first: an engine may scroll to it even when
 * asked not to (Firefox without JavaScript); the scroll after it decides where the page is.
 */
function placeEmail({ focus, top }: { focus: string; top: number }): boolean {
  document.getElementById(focus)!.focus({ preventScroll: true });
  const off =
    document.getElementById("contact-email")!.getBoundingClientRect().top -
    (top < 0 ? window.innerHeight + top : top);
  const placed = Math.abs(off) < 1.5;
  if (!placed) window.scrollTo({ top: window.scrollY + Math.round(off), behavior: "instant" });
  return placed;
}

/**
 * Until the field is in place twice in a row, 150 ms apart: a part rendered late above it
 * (content-visibility; WebKit has no scroll anchoring) can move it after a scroll. Page scripts may
 * be off, so the waiting is done here, not with the page's timers.
 */
async function placeUntilStill(page: Visitor, spot: Parameters<typeof placeEmail>[0]) {
  let still = 0;
  for (let round = 0; round < 40 && still < 2; round++) {
    still = (await page.evaluate(placeEmail, spot)) ? still + 1 : 0;
    if (still < 2) await new Promise((resolve) => setTimeout(resolve, 150));
  }
  if (still < 2) throw new Error(`${page.engine}: the e-mail field never held still at ${spot.top} px`);
}

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

function accordionFirstOpen(): boolean {
  return document.querySelector('#faq [data-faq-trigger="0"]')?.getAttribute("aria-expanded") === "true";
}

// Desktop tests first, then phone ones: each session goes there once (SIZES, visitor.ts).
describeEngines("the page in every engine: what a visitor does", ({ engine, stack, visitor }) => {
  for (const javaScript of [true, false]) {
    it(`desktop, JavaScript ${javaScript ? "on" : "off"}: every header link lands its section just below the fixed header`, async () => {
      const page = await visitor(javaScript);
      await page.open("/", DESKTOP);
      for (const { label, href } of headerLinks) {
        const id = href.slice(1);
        await page.click("header nav a", label);
        await page.waitFor((hash) => location.hash === hash, `#${id}`, `#${id} in the address`);
        await page.waitForLanding(id);
      }
    });
  }

  for (const { name, viewport } of SIZES) {
    // Where the field and the toast land differs with the size; the requests are the same.
    it(`${name}, JavaScript on: an empty submit shows the Validation Error toast and brings "Full name" into clear view, focused; then a valid request shows the success toast and reaches the function once`, async () => {
      const page = await visitor(true);
      await openAt(page, "contact", viewport);
      await page.click('#contact form button[type="submit"]');
      await waitForShown(page, "[role=region]", VALIDATION_TITLE);
      await waitForShown(page, "[role=region]", VALIDATION.name);
      await expectComesIntoClearView(
        page,
        { selector: "#contact-name", withLabel: true },
        "Full name and its label after an empty submit",
      );
      await page.fillValidRequest();
      const before = stack.fake.requests.length;
      await page.click('#contact form button[type="submit"]');
      await waitForShown(page, "[role=region]", SUCCESS.title);
      expect(stack.fake.requests.length - before).toBe(1);
    });

    for (const javaScript of [true, false]) {
      it(`${name}, JavaScript ${javaScript ? "on" : "off"}: Tab onto a field below the fold brings it fully into view, and Shift+Tab onto one under the header too`, async () => {
        const page = await visitor(javaScript);
        await page.open("/", viewport);
        // The e-mail field just below the bottom edge, with focus on the field before it.
        await placeUntilStill(page, { focus: "contact-name", top: -4 });
        await page.press("Tab");
        await expectComesIntoClearView(
          page,
          { selector: "#contact-email", withLabel: false },
          "E-mail after Tab",
        );
        // The e-mail field under the fixed header, then Shift+Tab from the field after it.
        await placeUntilStill(page, { focus: "contact-phone", top: 30 });
        await page.press("Shift+Tab");
        await expectComesIntoClearView(
          page,
          { selector: "#contact-email", withLabel: false },
          "E-mail after Shift+Tab",
        );
      });
    }
  }

  for (const javaScript of [true, false]) {
    const js = `JavaScript ${javaScript ? "on" : "off"}`;

    it(`phone, ${js}: the toggle opens and closes the menu, and choosing a section closes it and lands there; a FAQ question opens its answer, and opening another closes it`, async () => {
      const page = await visitor(javaScript);
      await page.open("/", PHONE);
      if (javaScript) await page.waitForEnhancement();
      await page.click('header [aria-controls="mobile-menu"]');
      await page.waitFor(menuShown, true, "the menu to open");
      await page.click('header [aria-controls="mobile-menu"]');
      await page.waitFor(menuShown, false, "the toggle to close the menu");
      await page.click('header [aria-controls="mobile-menu"]');
      await page.waitFor(menuShown, true, "the menu to open again");
      await page.click("#mobile-menu a", "Reviews");
      await page.waitFor(
        () => !document.getElementById("mobile-menu")?.checkVisibility() && location.hash === "#testimonials",
        undefined,
        "the menu to close on #testimonials",
      );
      await page.waitForLanding("testimonials");
      // Opened and closed with the toggle there, the menu leaves the page where it was.
      await page.settleScroll();
      const y = await page.evaluate(() => window.scrollY);
      await page.click('header [aria-controls="mobile-menu"]');
      await page.waitFor(menuShown, true, "the menu to open on #testimonials");
      await page.click('header [aria-controls="mobile-menu"]');
      await page.waitFor(menuShown, false, "the toggle to close the menu on #testimonials");
      expect(await page.evaluate(() => window.scrollY)).toBe(y);
      await page.click("#faq h3", faqs[0]!.question);
      await page.waitFor(faqAnswersAre, FIRST_ANSWER_OPEN, "answer 1 open");
      await page.click("#faq h3", faqs[1]!.question);
      await page.waitFor(
        faqAnswersAre,
        { answers: ANSWERS, open: [1], closed: [0] },
        "answer 2 open, 1 closed",
      );
      await page.click("#faq summary, #faq button", "View More Questions");
      await page.click("#faq h3", faqs[7]!.question);
      await page.waitFor(faqAnswersAre, { answers: ANSWERS, open: [7], closed: [0] }, "answer 8 open");
      await page.click("#faq h3", faqs[7]!.question);
      await page.waitFor(faqAnswersAre, { answers: ANSWERS, open: [], closed: [7] }, "answer 8 closed");
    });
  }

  // The server answers the form the same at every size: one size. The browser's own bubbles would
  // block the empty submit (novalidate), and the answer's page lands on the form with its notice.
  it(`phone, JavaScript off: an empty submit is answered by the Validation Error notice, nothing sent; then a valid request by the success notice in view below the header, and it reaches the function once`, async () => {
    const page = await visitor(false);
    await openAt(page, "contact", PHONE);
    const before = stack.fake.requests.length;
    await page.submitAndSettle(() => page.click('#contact form button[type="submit"]'), /#contact-form/);
    await waitForShown(page, "#contact [role=alert]", VALIDATION_TITLE);
    expect(stack.fake.requests.length - before).toBe(0);
    await page.fillValidRequest();
    await page.submitAndSettle(() => page.click('#contact form button[type="submit"]'), /contact=sent/);
    await waitForShown(page, "#contact [role=status]", SUCCESS.title);
    await page.waitForLanding("contact-form");
    await page.waitFor(
      () => {
        const notice = document.getElementById("contact-notice")!.getBoundingClientRect();
        return (
          notice.top >= document.querySelector("header")!.getBoundingClientRect().bottom - 1 &&
          notice.bottom <= window.innerHeight
        );
      },
      undefined,
      "the notice in view below the header",
    );
    expect(stack.fake.requests.length - before).toBe(1);
  });

  const consoleNote =
    engine === "webkit"
      ? " (WebKit's console is not readable: decision 035)"
      : " and logs the path in the console";
  it(`phone: an unknown path shows the 404 screen${consoleNote}, and Return to Home leads home`, async () => {
    const page = await visitor(true);
    await page.open("/no-such-page-in-any-engine", PHONE);
    await waitForShown(page, "main", "404");
    expect(await page.evaluate(() => document.title)).toMatch(/not found/i);
    const messages = page.session.consoleMessages();
    if (messages !== null)
      await expect
        .poll(() => page.session.consoleMessages()!.join("\n"), { timeout: 10_000 })
        .toContain("/no-such-page-in-any-engine");
    await page.submitAndSettle(() => page.click("main a", "Return to Home"), /\/$/);
    expect(await page.evaluate(() => Boolean(document.getElementById("services")))).toBe(true);
  });

  it(`no page error while a visitor reads the page${engine === "webkit" ? "" : ", and no console error"}`, async () => {
    const page = await visitor(true);
    const before = page.session.consoleMessages()?.length ?? 0;
    await page.open("/", PHONE);
    // Heard in the page itself, in every engine (WebKitWebDriver gives a client no console: decision
    // 035): what the page throws from its load on, as it takes over and as the visitor scrolls.
    await page.evaluate(watchPageErrors);
    await page.waitForEnhancement();
    await page.evaluate(() => window.scrollTo({ top: document.body.scrollHeight, behavior: "instant" }));
    await page.settleScroll();
    // The positive control: an error thrown now is heard.
    await page.evaluate(() => {
      setTimeout(() => {
        throw new Error("planted page error");
      });
    });
    const heard = await page.waitFor(
      () => {
        const errors = (window as unknown as { pageErrors: string[] }).pageErrors;
        return errors.some((line) => line.includes("planted page error")) ? errors : null;
      },
      undefined,
      "the planted page error heard",
    );
    expect(heard!.filter((line) => !line.includes("planted page error"))).toEqual([]);
    const messages = page.session.consoleMessages();
    if (messages === null) return;
    const errors = messages.slice(before).filter((line) => /^(error|pageerror)/.test(line));
    expect(errors.filter((line) => !line.includes("planted page error"))).toEqual([]);
  });

  /**
   * A press that spans hydration (issue 35): the pointer, or Space on the focused control, goes down
   * on the server's page, the page hydrates, and the press ends after. The control must act exactly
   * once (the menu open, not opened and closed again; the FAQ answer open; one request). A control
   * replaced between press and release is clicked by no one: the press was on the old element, the
   * release on the new one. The scripts are held at the server's side (`startHoldingProxy`: WebKit
   * has no network interception), so every engine runs the same steps. Phone only, after the rest.
   */
  describe("a press that began before hydration acts once", () => {
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
      await page.waitFor(accordionFirstOpen, undefined, "the accordion, with question 1 open");
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
        await page.evaluate(() => Boolean(document.activeElement?.closest("#faq")), undefined),
        "focus still on the question",
      ).toBe(true);
      await page.waitFor(accordionFirstOpen, undefined, "the accordion, with question 1 open");
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
      // One request at the function, and it is this one.
      const sent = stack.fake.requests.slice(before).map((request) => JSON.stringify(request.json));
      expect(sent.map((json) => json.includes(contact.message))).toEqual([true]);
    });
  });
});
