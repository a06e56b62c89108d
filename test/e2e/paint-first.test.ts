import { expect, it } from "vitest";

import { HELD_SCRIPTS_ID } from "~/lib/document/paint-first";

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
      const block = new RegExp(
        `<script type="application/json" id="${HELD_SCRIPTS_ID}">([^<]*)</script>`,
      ).exec(served);
      expect(block, "the held scripts' data block").not.toBeNull();
      const held = JSON.parse(block![1]!) as { preloads: string[]; module: string };
      const heldPreloads = held.preloads.length;
      expect(heldPreloads).toBeGreaterThanOrEqual(5);
      expect(held.module).toMatch(/^;?\s*import /);
      expect(served).not.toContain('<link rel="modulepreload"');
      expect(served).not.toMatch(/<script[^>]*type="module"/);

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

      // Every held element is live again, where Remix wrote it: the preloads just before the
      // context script, the bootstrap just after it, and no data block left.
      const dom = await page.evaluate((id) => {
        const bootstrap = document.querySelector('script[type="module"]');
        const context = bootstrap?.previousElementSibling;
        const before: string[] = [];
        for (
          let node = context?.previousElementSibling;
          node?.matches('link[rel="modulepreload"]');
          node = node.previousElementSibling
        )
          before.unshift(node.getAttribute("href") ?? "");
        return {
          dataBlock: document.getElementById(id) !== null,
          modules: document.querySelectorAll('script[type="module"]').length,
          context: context?.textContent?.startsWith("window.__remixContext") ?? false,
          preloadsBeforeContext: before,
        };
      }, HELD_SCRIPTS_ID);
      expect(dom).toEqual({
        dataBlock: false,
        modules: 1,
        context: true,
        preloadsBeforeContext: held.preloads,
      });
      // A hydration mismatch, a CSP refusal or a failed import would all be reported here.
      expect(problems).toEqual([]);
    });
  }
});
