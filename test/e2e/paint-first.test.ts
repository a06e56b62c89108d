import { expect, it } from "vitest";

import { HELD_MODULE_TYPE, HELD_PRELOAD_REL } from "~/lib/enhancement/paint-first";

import { describeBrowser, SIZES, useStack } from "./support/browser";
import { keepTrafficLocal, waitForHydration } from "./support/page";

/**
 * Paint first, enhance after (decision 022): the page's JavaScript is requested only once the
 * first contentful paint has happened, and then hydrates the page exactly as before.
 */
describeBrowser("paint first, then enhance", () => {
  const stack = useStack();

  for (const { name, options } of SIZES) {
    it(`${name}: no script is requested before the first contentful paint, and the page then hydrates cleanly`, async () => {
      const context = await stack.context(options);
      await keepTrafficLocal(context);
      const page = await context.newPage();
      const problems: string[] = [];
      page.on("console", (msg) => {
        if (msg.type() === "error" || msg.type() === "warning") problems.push(msg.text());
      });
      page.on("pageerror", (error) => problems.push(error.message));

      const response = await page.goto("/");
      const served = await response!.text();
      const heldPreloads = served.match(new RegExp(`rel="${HELD_PRELOAD_REL}"`, "g"))?.length ?? 0;
      expect(heldPreloads).toBeGreaterThanOrEqual(5);
      expect(served).toContain(`type="${HELD_MODULE_TYPE}"`);
      expect(served).not.toContain('rel="modulepreload"');

      await waitForHydration(page);
      const timing = await page.evaluate(() => {
        const fcp = performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? null;
        const scripts = performance
          .getEntriesByType("resource")
          .filter((entry) => new URL(entry.name).pathname.startsWith("/build/") && entry.name.endsWith(".js"))
          .map((entry) => ({ url: entry.name, start: entry.startTime }));
        return { fcp, scripts };
      });
      expect(timing.fcp).not.toBeNull();
      expect(timing.scripts.length).toBeGreaterThanOrEqual(heldPreloads);
      for (const script of timing.scripts) {
        expect(script.start, `${script.url} started before the first paint`).toBeGreaterThanOrEqual(
          timing.fcp!,
        );
      }

      // Every held element is live again, in the same place: nothing was added or left inert.
      const dom = await page.evaluate(
        ([rel, type]) => ({
          held: document.querySelectorAll(`link[rel="${rel}"], script[type="${type}"]`).length,
          preloads: document.querySelectorAll('link[rel="modulepreload"]').length,
          modules: document.querySelectorAll('script[type="module"]').length,
        }),
        [HELD_PRELOAD_REL, HELD_MODULE_TYPE],
      );
      expect(dom).toEqual({ held: 0, preloads: heldPreloads, modules: 1 });
      // A hydration mismatch, a CSP refusal or a failed import would all be reported here.
      expect(problems).toEqual([]);
    });
  }
});
