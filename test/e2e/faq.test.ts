import type { BrowserContextOptions, Page } from "playwright-core";
import { describe, expect, it } from "vitest";

import { faqs } from "~/content/faq";

import { describeBrowser, DESKTOP, SIZES, useStack } from "./support/browser";
import { contrastRatio } from "./support/design";
import { waitForFaqAccordion } from "./support/page";

describeBrowser("FAQ accordion", () => {
  // A question opens its answer and closes the open one, with JavaScript and without, in every
  // engine: engines-visitor.test.ts.
  const stack = useStack();

  async function open(options: BrowserContextOptions): Promise<Page> {
    const page = await stack.page(options);
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

  // A phone page resized from the narrowest to a common phone, and a desktop page.
  for (const sizes of [
    [
      [320, 640],
      [390, 844],
    ],
    [[1280, 800]],
  ] as const) {
    it(`${sizes.map(([width, height]) => `${width}x${height}`).join(", ")}: 4 questions shown, View More Questions shows 8 and View Less 4 again, keeping the focused button in view, below the fixed header (click and keyboard)`, async () => {
      const [[firstWidth, firstHeight]] = sizes;
      const phone = firstWidth < 1024;
      const page = await open({
        viewport: { width: firstWidth, height: firstHeight },
        isMobile: phone,
        hasTouch: phone,
      });
      for (const [width, height] of sizes) {
        await page.setViewportSize({ width, height });
        expect(await visibleQuestions(page), `${width}x${height}`).toEqual([0, 1, 2, 3]);
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
              const delta =
                where === "bottom" ? box.bottom - (window.innerHeight - 8) : box.top - (header + 8);
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

        await scrollSoThat("#faq button[aria-expanded]:not([data-state])", 0, "bottom");
        await page.keyboard.press("Enter");
        await less.waitFor();
        await expectToggleFocusedInView(page, "View Less");
        await scrollSoThat("#faq h3", 4, "top");
        await page.keyboard.press("Space");
        await more.waitFor();
        await expectToggleFocusedInView(page, "View More Questions");
        await expect.poll(() => visibleQuestions(page)).toEqual([0, 1, 2, 3]);
      }
    });
  }

  /** So a test acts while the FAQ is still native `<details>` (a fast machine swaps it before a Tab). */
  function holdAccordion() {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let requested = false;
    return {
      install: (page: Page) =>
        page.route("**/faq-accordion-*.js", async (route) => {
          requested = true;
          await held;
          await route.continue();
        }),
      release,
      requested: () => requested,
    };
  }

  for (const { name, options } of SIZES) {
    it(`${name}: focus stays on the FAQ question through the swap to the accordion, and Enter/Space then toggle it`, async () => {
      const accordion = holdAccordion();
      const page = await stack.page(options, { before: accordion.install });
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
    const accordion = holdAccordion();
    const page = await stack.page(SIZES[0].options, { before: accordion.install });
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

  // Issue 24: the toggle itself, with JavaScript (Radix, a <button>) and without (a <summary>).
  describe("View More Questions / View Less, with and without JavaScript", () => {
    async function openFaq(javaScriptEnabled: boolean): Promise<Page> {
      if (javaScriptEnabled) return open(DESKTOP);
      const page = await stack.page({ ...DESKTOP, javaScriptEnabled: false });
      await page.locator("#faq").scrollIntoViewIfNeeded();
      return page;
    }

    /** The toggle as the visitor sees it: the <button> with JavaScript, the <summary> without. */
    const toggleOf = (page: Page) =>
      page
        .locator("#faq")
        .locator("button[aria-expanded]:not([data-state]), details[data-faq-more] > summary");
    const label = (page: Page) => toggleOf(page).innerText();

    async function toggleContrast(page: Page): Promise<{ ratio: number; text: string; back: string }> {
      const toggle = toggleOf(page);
      await expect
        .poll(() => toggle.evaluate((el) => el.getAnimations().length), { message: "colour transition done" })
        .toBe(0);
      const colours = await toggle.evaluate((el) => {
        const parse = (value: string) => {
          const parts = value
            .match(/^rgba?\(([^)]+)\)$/)?.[1]
            ?.split(/[\s,/]+/)
            .filter(Boolean)
            .map(Number);
          if (!parts || parts.length < 3) throw new Error(`not an rgb() colour: ${value}`);
          return { rgb: parts.slice(0, 3) as [number, number, number], alpha: parts[3] ?? 1 };
        };
        // Composite the backgrounds from the toggle outwards until one is opaque.
        const layers: { rgb: [number, number, number]; alpha: number }[] = [];
        for (let node: Element | null = el; node; node = node.parentElement) {
          const layer = parse(getComputedStyle(node).backgroundColor);
          if (layer.alpha > 0) layers.push(layer);
          if (layer.alpha >= 1) break;
        }
        let back: [number, number, number] = [255, 255, 255];
        for (const layer of layers.reverse())
          back = back.map((c, i) => layer.rgb[i]! * layer.alpha + c * (1 - layer.alpha)) as typeof back;
        const text = parse(getComputedStyle(el).color);
        const fore = text.rgb.map((c, i) => c * text.alpha + back[i]! * (1 - text.alpha)) as typeof back;
        return { fore, back, textCss: getComputedStyle(el).color };
      });
      return {
        ratio: Math.round(contrastRatio(colours.fore, colours.back) * 100) / 100,
        text: colours.textCss,
        back: `rgb(${colours.back.map(Math.round).join(", ")})`,
      };
    }

    for (const javaScriptEnabled of [true, false]) {
      const js = javaScriptEnabled ? "JS on" : "JS off";

      it(`desktop, ${js}: the toggle keeps 4.5:1 at rest, on hover, pressed and focused, for both labels; after Enter on View More Questions, the next Tab reaches the first question it showed${javaScriptEnabled ? "" : "; View Less follows the last question, where the JavaScript version has it"}`, async () => {
        const page = await openFaq(javaScriptEnabled);
        const toggle = toggleOf(page);
        const states: string[] = [];
        const measure = async (state: string) => {
          const { ratio, text, back } = await toggleContrast(page);
          const line = `${state} "${(await label(page)).trim()}": ${ratio}:1 (${text} on ${back})`;
          states.push(line);
          expect(ratio, states.join("\n")).toBeGreaterThanOrEqual(4.5);
        };

        await measure("at rest");
        await toggle.hover();
        await measure("hovered");
        await page.mouse.down();
        await measure("pressed");
        // With JavaScript the button stays under the unmoved pointer; without, the questions push
        // the toggle down, so the pointer follows it.
        await page.mouse.up();
        await expect.poll(() => label(page)).toBe("View Less");
        if (!javaScriptEnabled) await toggle.hover();
        await measure("hovered");
        await page.mouse.down();
        await measure("pressed");
        await page.mouse.up();
        await expect.poll(() => label(page)).toBe("View More Questions");
        if (!javaScriptEnabled) await toggle.hover();
        await measure("hovered");

        await page.mouse.move(1, 1);
        await toggle.focus();
        await measure("focused");
        await page.keyboard.press("Enter");
        await expect.poll(() => label(page)).toBe("View Less");
        await measure("focused");
        await toggle.hover();
        await measure("focused and hovered");

        await page.keyboard.press("Enter");
        await expect.poll(() => label(page)).toBe("View More Questions");
        await page.mouse.move(1, 1);
        const focused = () =>
          page.evaluate(
            () => (document.activeElement as HTMLElement | null)?.innerText.trim().split("\n")[0],
          );
        // Arrive as a keyboard visitor does: Tab from the last question shown onto the toggle.
        await page
          .locator("#faq")
          .locator("summary, button")
          .filter({ hasText: faqs[3]!.question })
          .first()
          .focus();
        await page.keyboard.press("Tab");
        await expect.poll(focused).toBe("View More Questions");
        await page.keyboard.press("Enter");
        await expect.poll(() => label(page)).toBe("View Less");
        expect(await focused(), "the toggle keeps focus").toBe("View Less");

        await page.keyboard.press("Tab");
        expect(await focused(), "the first question View More Questions showed").toBe(faqs[4]!.question);
        for (const { question } of faqs.slice(5)) {
          await page.keyboard.press("Tab");
          expect(await focused()).toBe(question);
        }
        if (javaScriptEnabled) {
          await page.keyboard.press("Tab");
          expect(await focused(), "after the last question, the toggle that follows it").toBe("View Less");
        }
        await page.keyboard.press("Tab");
        expect(await focused()).toBe("Email us");
        if (!javaScriptEnabled) await expectToggleAfterLastQuestion(page);
      });
    }

    async function expectToggleAfterLastQuestion(page: Page): Promise<void> {
      const where = async () =>
        page.evaluate(() => {
          const faq = document.getElementById("faq")!;
          const toggle = faq.querySelector("details[data-faq-more] > summary")!.getBoundingClientRect();
          const shown = Array.from(faq.querySelectorAll("details[data-faq-item]"))
            .filter((item) => item.checkVisibility({ contentVisibilityAuto: true }))
            .map((item) => item.getBoundingClientRect());
          return {
            toggleTop: Math.round(toggle.top),
            lastQuestionBottom: Math.round(Math.max(...shown.map((box) => box.bottom))),
            shown: shown.length,
          };
        });
      expect(await label(page)).toBe("View Less");
      const opened = await where();
      expect(opened.shown).toBe(8);
      expect(opened.toggleTop, `View Less after question 8: ${JSON.stringify(opened)}`).toBeGreaterThan(
        opened.lastQuestionBottom,
      );

      await toggleOf(page).click();
      await expect.poll(() => label(page)).toBe("View More Questions");
      const closed = await where();
      expect(closed.shown).toBe(4);
      expect(closed.toggleTop, JSON.stringify(closed)).toBeGreaterThan(closed.lastQuestionBottom);
    }
  });
});
