import type { BrowserContextOptions } from "playwright-core";
import { expect, it } from "vitest";

import { faqs } from "~/content/faq";

import { describeBrowser, useStack } from "./support/browser";
import {
  findHorizontalOverflow,
  linkTextLines,
  OVERFLOW_CONTROL_FINDINGS,
  plantOverflowControl,
} from "./support/layout";
import { scrollThrough } from "./support/page";

/** Common phone widths (the narrowest a page must serve, then the usual ones), then tablets and desktops. */
const PHONE_WIDTHS = [320, 360, 375, 390, 430];
const WIDER = [640, 768, 1024, 1280, 1440];

function viewportOf(width: number): BrowserContextOptions {
  const phone = width < 640;
  return {
    viewport: { width, height: phone ? 844 : 900 },
    deviceScaleFactor: 1,
    isMobile: phone,
    hasTouch: phone,
  };
}

/** The hero's main button, as the spec names it. */
const HERO_PRIMARY = "Transform Your Business with AI";

describeBrowser("layout at every width: nothing spills out of its box", () => {
  const stack = useStack();

  // Without JavaScript, in every engine: engines-layout.test.ts. Here the page as JavaScript leaves
  // it, loaded once per kind of device and resized through its widths, as a window dragged wider.
  for (const widths of [PHONE_WIDTHS, WIDER]) {
    it(`${widths.join(", ")} px, with JavaScript (all sections revealed, 8 FAQ questions, menu open where there is one): no element overflows its box or the viewport horizontally, and the hero's main button "${HERO_PRIMARY}" reads on one line (two at most at 320 px, inside the screen)`, async () => {
      const page = await stack.page(viewportOf(widths[0]!));
      await scrollThrough(page, faqs[0]!.question);
      await page.locator("#faq").getByRole("button", { name: "View More Questions" }).click();
      await page.locator("#faq").getByRole("button", { name: "View Less" }).waitFor();
      const toggle = page.locator('[aria-controls="mobile-menu"][role="button"]').filter({ visible: true });
      if ((await toggle.count()) > 0) {
        await toggle.click();
        await page.locator("#mobile-menu").waitFor({ state: "visible" });
      }
      for (const width of widths) {
        await page.setViewportSize(viewportOf(width).viewport!);
        const problems = await page.evaluate(findHorizontalOverflow);
        expect(problems, `${width} px:\n${problems.join("\n")}`).toEqual([]);
        const label = await page.evaluate(linkTextLines, HERO_PRIMARY);
        if (width === 320) {
          expect(label.lines, JSON.stringify(label)).toBeGreaterThanOrEqual(1);
          expect(label.lines, JSON.stringify(label)).toBeLessThanOrEqual(2);
          expect(label.box).toBeLessThanOrEqual(320);
        } else expect(label.lines, `${width} px: ${JSON.stringify(label)}`).toBe(1);
      }
      // The positive control: the same sweep on the same page finds the spills planted in it.
      await page.evaluate(plantOverflowControl);
      const planted = await page.evaluate(findHorizontalOverflow);
      for (const finding of OVERFLOW_CONTROL_FINDINGS)
        expect(
          planted.some((problem) => finding.test(problem)),
          `${finding} in:\n${planted.join("\n")}`,
        ).toBe(true);
    });
  }
});
