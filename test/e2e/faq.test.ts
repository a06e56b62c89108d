import type { BrowserContextOptions, Page } from "playwright-core";
import { expect, it } from "vitest";

import { faqs } from "~/content/faq";

import { describeBrowser, SIZES, useStack } from "./support/browser";
import { keepTrafficLocal, waitForFaqAccordion, waitForHydration } from "./support/page";

describeBrowser("FAQ accordion", () => {
  const stack = useStack();

  async function open(options: BrowserContextOptions): Promise<Page> {
    const context = await stack.context(options);
    await keepTrafficLocal(context);
    const page = await context.newPage();
    await page.goto("/");
    await waitForHydration(page);
    await page.locator("#faq").scrollIntoViewIfNeeded();
    // The accordion is loaded lazily as the FAQ nears the viewport: let it take over.
    await waitForFaqAccordion(page, faqs[0]!.question);
    return page;
  }

  const question = (page: Page, index: number) =>
    page.locator("#faq").getByRole("button", { name: faqs[index]!.question, exact: true });
  const visibleQuestions = async (page: Page) => {
    const states = await Promise.all(faqs.map((_, i) => question(page, i).isVisible()));
    return states.flatMap((visible, i) => (visible ? [i] : []));
  };
  const answer = (page: Page, index: number) =>
    page.locator("#faq").getByText(faqs[index]!.answer, { exact: false }).first();

  it("has eight questions in the content (the test's premise)", () => {
    expect(faqs).toHaveLength(8);
  });

  for (const { name, options } of SIZES) {
    it(`${name}: shows 4 questions, View More Questions shows 8, View Less shows 4 again`, async () => {
      const page = await open(options);
      expect(await visibleQuestions(page)).toEqual([0, 1, 2, 3]);

      await page.locator("#faq").getByRole("button", { name: "View More Questions" }).click();
      await expect.poll(() => visibleQuestions(page)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);

      const viewLess = page.locator("#faq").getByRole("button", { name: "View Less" });
      await viewLess.click();
      await expect.poll(() => visibleQuestions(page)).toEqual([0, 1, 2, 3]);
      await expect
        .poll(() => page.locator("#faq").getByRole("button", { name: "View More Questions" }).isVisible())
        .toBe(true);
    });

    it(`${name}: one item open at most; an open item closes when clicked again`, async () => {
      const page = await open(options);
      const first = question(page, 0);
      const second = question(page, 1);
      expect(await first.getAttribute("aria-expanded")).toBe("false");
      expect(await answer(page, 0).isVisible()).toBe(false);

      await first.click();
      await expect.poll(() => first.getAttribute("aria-expanded")).toBe("true");
      await expect.poll(() => answer(page, 0).isVisible()).toBe(true);

      await second.click();
      await expect.poll(() => second.getAttribute("aria-expanded")).toBe("true");
      await expect.poll(() => first.getAttribute("aria-expanded")).toBe("false");
      await expect.poll(() => answer(page, 0).isVisible()).toBe(false);
      await expect.poll(() => answer(page, 1).isVisible()).toBe(true);

      await second.click();
      await expect.poll(() => second.getAttribute("aria-expanded")).toBe("false");
      await expect.poll(() => answer(page, 1).isVisible()).toBe(false);
      const expanded = await Promise.all(
        faqs.slice(0, 4).map((_, i) => question(page, i).getAttribute("aria-expanded")),
      );
      expect(expanded).toEqual(["false", "false", "false", "false"]);
    });
  }

  /** Where the focused element is, against the fixed header and the viewport. */
  const focusedPlace = (page: Page) =>
    page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      const box = el?.getBoundingClientRect();
      const header = document.querySelector("header")!.getBoundingClientRect();
      return {
        focused: `${el?.tagName.toLowerCase()} "${el?.textContent?.trim()}"`,
        top: Math.round(box?.top ?? -1),
        bottom: Math.round(box?.bottom ?? -1),
        headerBottom: Math.round(header.bottom),
        viewportHeight: window.innerHeight,
      };
    });

  async function expectToggleFocusedInView(page: Page, label: string) {
    const place = await focusedPlace(page);
    const summary = JSON.stringify(place);
    expect(place.focused, summary).toBe(`button "${label}"`);
    expect(place.top, `${label}: below the fixed header: ${summary}`).toBeGreaterThanOrEqual(
      place.headerBottom,
    );
    expect(place.bottom, `${label}: inside the viewport: ${summary}`).toBeLessThanOrEqual(
      place.viewportHeight,
    );
  }

  for (const [width, height] of [
    [320, 640],
    [390, 844],
    [1280, 800],
  ] as const) {
    it(`${width}x${height}: View More Questions and View Less keep the focused button in view, below the fixed header (click and keyboard)`, async () => {
      const phone = width < 1024;
      const page = await open({ viewport: { width, height }, isMobile: phone, hasTouch: phone });
      const faq = page.locator("#faq");
      const more = faq.getByRole("button", { name: "View More Questions" });
      const less = faq.getByRole("button", { name: "View Less" });
      // The reader has read the first four questions: View More Questions is at the bottom of the screen.
      const scrollSoThat = (selector: string, index: number, edge: "top" | "bottom") =>
        page.evaluate(
          ([sel, i, where]) => {
            const el = document.querySelectorAll(sel)[i as number]!;
            const box = el.getBoundingClientRect();
            const header = document.querySelector("header")!.getBoundingClientRect().bottom;
            const delta = where === "bottom" ? box.bottom - (window.innerHeight - 8) : box.top - (header + 8);
            window.scrollBy({ top: delta, behavior: "instant" });
          },
          [selector, index, edge] as const,
        );
      await scrollSoThat("#faq button[aria-expanded]:not([data-state])", 0, "bottom");
      await more.click();
      await less.waitFor();
      await expectToggleFocusedInView(page, "View Less");
      await expect.poll(() => visibleQuestions(page)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);

      // The reader has scrolled on to the extra questions: the fifth sits just below the header.
      await scrollSoThat("#faq h3", 4, "top");
      await less.click();
      await more.waitFor();
      await expectToggleFocusedInView(page, "View More Questions");
      await expect.poll(() => visibleQuestions(page)).toEqual([0, 1, 2, 3]);

      // The same with the keyboard.
      await scrollSoThat("#faq button[aria-expanded]:not([data-state])", 0, "bottom");
      await page.keyboard.press("Enter");
      await less.waitFor();
      await expectToggleFocusedInView(page, "View Less");
      await scrollSoThat("#faq h3", 4, "top");
      await page.keyboard.press("Space");
      await more.waitFor();
      await expectToggleFocusedInView(page, "View More Questions");
    });
  }

  /**
   * Holds the accordion's code until released, so a test can act while the FAQ is still native
   * `<details>` markup (on a fast machine it would otherwise arrive before the first Tab).
   */
  async function holdAccordion(page: Page): Promise<{ release: () => void; requested: () => boolean }> {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let requested = false;
    await page.route("**/faq-accordion-*.js", async (route) => {
      requested = true;
      await held;
      await route.continue();
    });
    return { release, requested: () => requested };
  }

  for (const { name, options } of SIZES) {
    it(`${name}: focus stays on the FAQ question through the swap to the accordion, and Enter/Space then toggle it`, async () => {
      const context = await stack.context(options);
      await keepTrafficLocal(context);
      const page = await context.newPage();
      const accordion = await holdAccordion(page);
      await page.goto("/");
      await waitForHydration(page);
      // Tab from the last control before the FAQ onto its first question, as a keyboard visitor does.
      await page.locator("#academy a").last().focus();
      await page.keyboard.press("Tab");
      const before = await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 60));
      expect(before, "the native question has focus before the accordion arrives").toMatch(/^<summary/);
      await expect.poll(() => accordion.requested(), { message: "focus asked for the accordion" }).toBe(true);

      accordion.release();
      await waitForFaqAccordion(page, faqs[0]!.question);
      const first = question(page, 0);
      await expect
        .poll(() => first.evaluate((el) => el === document.activeElement), {
          message: "after the swap, focus is on the same question",
        })
        .toBe(true);
      expect(await first.evaluate((el) => el.matches(":focus-visible"))).toBe(true);
      await page.keyboard.press("Enter");
      await expect.poll(() => first.getAttribute("aria-expanded")).toBe("true");
      await expect.poll(() => answer(page, 0).isVisible()).toBe(true);
      await page.keyboard.press("Space");
      await expect.poll(() => first.getAttribute("aria-expanded")).toBe("false");
    });
  }

  it("phone: focus on View More Questions survives the swap too, and an item opened before it stays open", async () => {
    const context = await stack.context(SIZES[0].options);
    await keepTrafficLocal(context);
    const page = await context.newPage();
    const accordion = await holdAccordion(page);
    await page.goto("/");
    await waitForHydration(page);
    await page.locator("#faq").scrollIntoViewIfNeeded();
    await page.locator("#faq summary").filter({ hasText: faqs[1]!.question }).click();
    await page.locator("#faq summary").filter({ hasText: "View More Questions" }).focus();
    accordion.release();
    await waitForFaqAccordion(page, faqs[0]!.question);
    const more = page.locator("#faq").getByRole("button", { name: "View More Questions" });
    await expect.poll(() => more.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await question(page, 1).getAttribute("aria-expanded")).toBe("true");
    await page.keyboard.press("Enter");
    await expect.poll(() => visibleQuestions(page)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it("desktop: works with the keyboard (Enter and Space on a question, Enter on View More Questions)", async () => {
    const page = await open(SIZES[1].options);
    const first = question(page, 0);
    await first.focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => first.getAttribute("aria-expanded")).toBe("true");
    await expect.poll(() => answer(page, 0).isVisible()).toBe(true);
    await page.keyboard.press("Space");
    await expect.poll(() => first.getAttribute("aria-expanded")).toBe("false");

    // Tab reaches the next question, and Enter there opens it (closing nothing else).
    await page.keyboard.press("Tab");
    expect(await question(page, 1).evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press("Enter");
    await expect.poll(() => question(page, 1).getAttribute("aria-expanded")).toBe("true");

    await page.locator("#faq").getByRole("button", { name: "View More Questions" }).focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => visibleQuestions(page)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    await question(page, 7).focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => answer(page, 7).isVisible()).toBe(true);
    await expect.poll(() => question(page, 1).getAttribute("aria-expanded")).toBe("false");
  });
});
