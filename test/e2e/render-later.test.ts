import type { BrowserContext, BrowserContextOptions, Page } from "playwright-core";
import { expect, it } from "vitest";

import { faqs } from "~/content/faq";
import { LATER_PARTS } from "~/lib/document/render-later";

import { describeBrowser, DESKTOP, PHONE, SIZES, useStack } from "./support/browser";
import {
  expectLandedOn,
  keepTrafficLocal,
  submitButton,
  toast,
  waitForHydration,
  waitForScrollToSettle,
} from "./support/page";
import { SUCCESS, uniqueContact } from "./support/spec-texts";

/**
 * A cheaper first frame (decision 036): with JavaScript, the parts after the hero are rendered only
 * when in view until the loader renders each for good in idle time. These tests take idle time away
 * (the parts stay unrendered, with estimated heights) and check that nothing the visitor does
 * depends on an estimate: the defects that made `content-visibility` fail before (docs/performance.md).
 */

/** The browser is never idle: the later parts stay as the first frame left them. */
async function neverIdle(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    window.requestIdleCallback = () => 0;
  });
}

/** How each later part is rendered now: `auto` (only in view, estimated otherwise) or `visible`. */
function partStates(page: Page): Promise<string[]> {
  return page.evaluate(
    (selector) =>
      Array.from(document.querySelectorAll(selector)).map((part) => getComputedStyle(part).contentVisibility),
    LATER_PARTS,
  );
}

describeBrowser("the parts after the hero, rendered later", () => {
  const stack = useStack();

  async function openUnrendered(options: BrowserContextOptions, path = "/"): Promise<Page> {
    const context = await stack.context(options);
    await keepTrafficLocal(context);
    await neverIdle(context);
    const page = await context.newPage();
    await page.goto(path, { waitUntil: "load" });
    return page;
  }

  it("without any interaction, every part is rendered for good once the browser is idle after load (what axe then reads)", async () => {
    const context = await stack.context(PHONE);
    await keepTrafficLocal(context);
    const page = await context.newPage();
    await page.goto("/");
    const states = await partStates(page);
    expect(states.length).toBe(10);
    await expect.poll(() => partStates(page)).toEqual(states.map(() => "visible"));
  });

  it("without JavaScript, every part is rendered at once, as before", async () => {
    const context = await stack.context({ ...PHONE, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto("/");
    expect(await partStates(page)).toEqual(Array.from({ length: 10 }, () => "visible"));
  });

  for (const { name, options } of SIZES) {
    it(`${name}: before they are rendered, a footer link lands on its section (every part is rendered before the browser scrolls)`, async () => {
      const page = await openUnrendered(options);
      expect(await partStates(page)).toContain("auto");
      await page.evaluate(() => window.scrollTo({ top: document.body.scrollHeight, behavior: "instant" }));
      await waitForScrollToSettle(page);
      await page.locator("footer").last().getByRole("link", { name: "Testimonials", exact: true }).click();
      await expectLandedOn(page, "#testimonials");
      expect(new Set(await partStates(page))).toEqual(new Set(["visible"]));
    });
  }

  it("phone: opening at a fragment lands on it, with every part rendered", async () => {
    const page = await openUnrendered(PHONE, "/#faq");
    await expectLandedOn(page, "#faq");
    expect(new Set(await partStates(page))).toEqual(new Set(["visible"]));
  });

  for (const { name, options } of SIZES)
    it(`${name}: a reload shows the same content where the reader left it`, async () => {
      const page = await openUnrendered(options);
      await page.evaluate(() => window.scrollTo({ top: 4000, behavior: "instant" }));
      await waitForScrollToSettle(page);
      const inView = () =>
        page.evaluate(
          () => document.elementFromPoint(window.innerWidth / 2, window.innerHeight / 2)?.outerHTML,
        );
      const before = await inView();
      await page.reload({ waitUntil: "load" });
      await waitForScrollToSettle(page);
      expect(await inView()).toBe(before);
    });

  it("phone: before they are rendered, a tap on a FAQ question opens it", async () => {
    const page = await openUnrendered(PHONE);
    const summary = page.locator('#faq details[data-faq-item="3"] > summary');
    await summary.tap();
    await expect
      .poll(() => page.locator('#faq [data-faq-item="3"], #faq [data-faq-trigger="3"]').first().isVisible())
      .toBe(true);
    await waitForHydration(page);
    await expect
      .poll(() =>
        page
          .locator("#faq")
          .getByRole("button", { name: faqs[3]!.question, exact: true })
          .getAttribute("aria-expanded"),
      )
      .toBe("true");
  });

  it("phone: before any interaction, the counter can be read (its part is rendered in idle time, not at the first interaction)", async () => {
    const context = await stack.context(PHONE);
    await keepTrafficLocal(context);
    const page = await context.newPage();
    await page.goto("/");
    await expect.poll(() => page.getByTestId("contact-message-count").innerText()).toBe("0/2000");
  });

  it("phone: before they are rendered, the toast of a submission is in view (fixed to the viewport, not to its part)", async () => {
    const page = await openUnrendered(PHONE);
    // A key press or focus inside a part renders every part (render-later.ts): the form is filled as
    // the browser's autofill fills it, and a tap on the hero starts the enhancement.
    await page.mouse.click(4, 200);
    await waitForHydration(page);
    await page.evaluate((values) => {
      for (const [name, value] of Object.entries(values)) {
        const field = document.querySelector<HTMLInputElement>(`#contact [name="${name}"]`)!;
        field.value = value;
        field.dispatchEvent(new Event("input", { bubbles: true }));
      }
    }, uniqueContact());
    expect(await partStates(page)).toContain("auto");
    await submitButton(page).click();
    const success = toast(page, SUCCESS.title);
    await expect.poll(() => success.isVisible()).toBe(true);
    const box = await success.boundingBox();
    const viewport = page.viewportSize()!;
    expect(box!.y + box!.height).toBeLessThanOrEqual(viewport.height);
    expect(box!.y).toBeGreaterThanOrEqual(0);
  });

  it("desktop: parts not yet rendered never shift what is on screen while the loader renders them", async () => {
    const context = await stack.context(DESKTOP);
    await keepTrafficLocal(context);
    const page = await context.newPage();
    await page.goto("/", { waitUntil: "load" });
    await expect.poll(() => partStates(page)).toEqual(Array.from({ length: 10 }, () => "visible"));
    const shift = await page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          let total = 0;
          new PerformanceObserver((list) => {
            for (const entry of list.getEntries() as unknown as { value: number; hadRecentInput: boolean }[])
              if (!entry.hadRecentInput) total += entry.value;
          }).observe({ type: "layout-shift", buffered: true });
          setTimeout(() => resolve(total), 100);
        }),
    );
    expect(shift).toBe(0);
  });
});
