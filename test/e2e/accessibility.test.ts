import AxeBuilder from "@axe-core/playwright";
import type { Page } from "playwright-core";
import { expect, it } from "vitest";

import { describeBrowser, PHONE, SIZES, useStack } from "./support/browser";
import { faqs } from "~/content/faq";

import { keepTrafficLocal, scrollThrough, waitForHydration } from "./support/page";
import { AXE_TAGS } from "./support/spec-texts";

/** axe on a long page takes a while on a busy 2-core machine. */
const AXE_TIMEOUT = 120_000;

async function violations(page: Page): Promise<string> {
  const result = await new AxeBuilder({ page }).withTags(AXE_TAGS).analyze();
  return result.violations
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help}\n` +
        v.nodes
          .slice(0, 5)
          .map((n) => `    ${n.target.join(" ")} — ${n.failureSummary?.split("\n").join(" ")}`)
          .join("\n"),
    )
    .join("\n");
}

describeBrowser("accessibility (axe: WCAG 2.2 AA tags)", () => {
  const stack = useStack();

  async function open(options: (typeof SIZES)[number]["options"], path = "/"): Promise<Page> {
    const context = await stack.context(options);
    await keepTrafficLocal(context);
    const page = await context.newPage();
    await page.goto(path);
    await waitForHydration(page);
    return page;
  }

  const settle = (page: Page) => scrollThrough(page, faqs[0]!.question);

  for (const { name, options } of SIZES) {
    it(
      `${name}: home page, FAQ collapsed`,
      async () => {
        const page = await open(options);
        await settle(page);
        expect(await violations(page)).toBe("");
      },
      AXE_TIMEOUT,
    );

    it(
      `${name}: home page, FAQ expanded (all 8, one answer open)`,
      async () => {
        const page = await open(options);
        await settle(page);
        const faq = page.locator("#faq");
        await faq.getByRole("button", { name: "View More Questions" }).click();
        await faq.getByRole("button", { name: "View Less" }).waitFor();
        await faq.locator("button[aria-expanded=false]").filter({ visible: true }).first().click();
        await page.waitForTimeout(400); // let the open animation finish
        expect(await violations(page)).toBe("");
      },
      AXE_TIMEOUT,
    );

    it(
      `${name}: 404 page`,
      async () => {
        const page = await open(options, "/definitely/not/here");
        expect(await violations(page)).toBe("");
      },
      AXE_TIMEOUT,
    );
  }

  it(
    "phone: home page with the mobile menu open",
    async () => {
      const page = await open(PHONE);
      await settle(page);
      await page.locator('[aria-controls="mobile-menu"]').filter({ visible: true }).first().click();
      await page.locator("#mobile-menu").waitFor({ state: "visible" });
      expect(await violations(page)).toBe("");
    },
    AXE_TIMEOUT,
  );
});
