import type { Page } from "playwright-core";
import { expect, it } from "vitest";

import { faqs } from "~/content/faq";

import { describeBrowser, SIZES, useStack } from "./support/browser";
import { keepTrafficLocal, waitForFaqAccordion, waitForHydration } from "./support/page";

describeBrowser("FAQ accordion", () => {
  const stack = useStack();

  async function open(options: (typeof SIZES)[number]["options"]): Promise<Page> {
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
