import { statSync } from "node:fs";

import { expect, it } from "vitest";

import { describeBrowser, ensureScreenshotDir, SIZES, useStack } from "./support/browser";
import { faqs } from "~/content/faq";

import { keepTrafficLocal, scrollThrough, waitForHydration } from "./support/page";

describeBrowser("full-page screenshots (for people to look at)", () => {
  const stack = useStack();

  for (const { name, options } of SIZES) {
    it(`${name}: home, each section and 404 screenshots under test-results/screenshots/, no horizontal scrolling`, async () => {
      const dir = ensureScreenshotDir();
      const context = await stack.context(options);
      await keepTrafficLocal(context);
      const page = await context.newPage();
      await page.goto("/");
      await waitForHydration(page);
      // Reveal everything that waits for the viewport (testimonials, accordion), then return to the top.
      await scrollThrough(page, faqs[0]!.question);
      const overflow = await page.evaluate(() => ({
        scrollWidth: document.documentElement.scrollWidth,
        innerWidth: window.innerWidth,
      }));
      expect(overflow.scrollWidth, "no horizontal scrolling").toBeLessThanOrEqual(overflow.innerWidth);

      const home = `${dir}/home-${name}.png`;
      await page.screenshot({ path: home, fullPage: true, animations: "disabled" });
      expect(statSync(home).size).toBeGreaterThan(10_000);

      // One picture per section (and the footer), to look at a section without the whole page.
      const sections = page.locator("main > section, body > footer, footer:not(main footer)");
      const names = await sections.evaluateAll((elements) =>
        elements.map((el) => el.id || el.getAttribute("data-island") || el.tagName.toLowerCase()),
      );
      expect(names).toEqual(expect.arrayContaining(["hero", "services", "testimonials", "contact", "faq"]));
      for (const [index, section] of names.entries()) {
        const file = `${dir}/section-${String(index + 1).padStart(2, "0")}-${section}-${name}.png`;
        await sections.nth(index).screenshot({ path: file, animations: "disabled" });
        expect(statSync(file).size, file).toBeGreaterThan(2_000);
      }

      await page.goto("/this-page-does-not-exist");
      const notFound = `${dir}/404-${name}.png`;
      await page.screenshot({ path: notFound, fullPage: true, animations: "disabled" });
      expect(statSync(notFound).size).toBeGreaterThan(2_000);
    });
  }
});
