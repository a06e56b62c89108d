import { statSync } from "node:fs";

import { expect, it } from "vitest";

import { describeBrowser, ensureScreenshotDir, SIZES, useStack } from "./support/browser";
import { keepTrafficLocal, waitForHydration } from "./support/page";

describeBrowser("full-page screenshots (for people to look at)", () => {
  const stack = useStack();

  for (const { name, options } of SIZES) {
    it(`${name}: home and 404 screenshots under test-results/screenshots/, no horizontal scrolling`, async () => {
      const dir = ensureScreenshotDir();
      const context = await stack.context(options);
      await keepTrafficLocal(context);
      const page = await context.newPage();
      await page.goto("/");
      await waitForHydration(page);
      // Reveal everything that waits for the viewport (testimonials), then return to the top.
      await page.evaluate(async () => {
        for (let y = 0; y <= document.documentElement.scrollHeight; y += window.innerHeight) {
          window.scrollTo({ top: y, behavior: "instant" });
          await new Promise((resolve) => setTimeout(resolve, 60));
        }
        await new Promise((resolve) => setTimeout(resolve, 1300));
        window.scrollTo({ top: 0, behavior: "instant" });
      });
      const overflow = await page.evaluate(() => ({
        scrollWidth: document.documentElement.scrollWidth,
        innerWidth: window.innerWidth,
      }));
      expect(overflow.scrollWidth, "no horizontal scrolling").toBeLessThanOrEqual(overflow.innerWidth);

      const home = `${dir}/home-${name}.png`;
      await page.screenshot({ path: home, fullPage: true, animations: "disabled" });
      expect(statSync(home).size).toBeGreaterThan(10_000);

      await page.goto("/this-page-does-not-exist");
      const notFound = `${dir}/404-${name}.png`;
      await page.screenshot({ path: notFound, fullPage: true, animations: "disabled" });
      expect(statSync(notFound).size).toBeGreaterThan(2_000);
    });
  }
});
