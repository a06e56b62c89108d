import type { Page } from "playwright-core";
import { expect, it } from "vitest";

import { site } from "~/content/site";

import { describeBrowser, PHONE, SIZES, useStack } from "./support/browser";
import { keepTrafficLocal, waitForHydration } from "./support/page";

describeBrowser("404 page", () => {
  const stack = useStack();

  // An unknown path's 404 screen, its console line and Return to Home, in every engine:
  // engines-visitor.test.ts; its status and headers: test/http/bad-urls.test.ts.
  // Issue 24: the 404 and the 400 (an address that is not valid percent-encoding) keep the brand.
  const brandedPage = async (page: Page, heading: string) => {
    expect(await page.title()).toBe(`${heading} | ${site.brandName}`);
    const header = page.getByRole("banner");
    expect(await header.isVisible(), "the site's header").toBe(true);
    const brand = header.getByRole("link", { name: site.brandName });
    expect(await brand.getAttribute("href")).toBe("/");
    expect(await page.getByRole("heading", { level: 1, name: heading }).isVisible()).toBe(true);
  };

  const screens = [
    ["/no-such-page", 404, "Page Not Found"],
    ["/%", 400, "Bad Request"],
  ] as const;

  for (const javaScriptEnabled of [true, false]) {
    it(`desktop, JS ${javaScriptEnabled ? "on" : "off"}: ${screens.map(([path, status]) => `${path} (${status})`).join(" and ")} have the site's header and brand, and Get Started leads to the home page's form`, async () => {
      const context = await stack.context({ ...SIZES[1].options, javaScriptEnabled });
      await keepTrafficLocal(context);
      const page = await context.newPage();
      for (const [path, status, heading] of screens) {
        const response = await page.goto(path);
        expect(response?.status()).toBe(status);
        if (javaScriptEnabled) await waitForHydration(page);
        await brandedPage(page, heading);

        await page.getByRole("banner").getByRole("link", { name: "Get Started" }).click();
        await page.waitForURL((url) => url.pathname === "/" && url.hash === "#contact");
        await expect.poll(() => page.locator("#contact form").isVisible()).toBe(true);
      }
    });
  }

  it("phone, JS on: the 404's menu opens and leads to a section of the home page; the brand links home", async () => {
    const context = await stack.context(PHONE);
    await keepTrafficLocal(context);
    const page = await context.newPage();
    expect((await page.goto("/no-such-page"))?.status()).toBe(404);
    await waitForHydration(page);
    await brandedPage(page, "Page Not Found");
    await page.locator('[aria-controls="mobile-menu"][role="button"]').filter({ visible: true }).click();
    await page.locator("#mobile-menu").getByRole("link", { name: "About", exact: true }).click();
    await page.waitForURL((url) => url.pathname === "/" && url.hash === "#about");
    await expect.poll(() => page.locator("#about").isVisible()).toBe(true);
    await page.goBack();
    await page.waitForURL((url) => url.pathname === "/no-such-page");
    await page.getByRole("banner").getByRole("link", { name: site.brandName }).click();
    await page.waitForURL((url) => url.pathname === "/" && url.hash === "");
    await expect.poll(() => page.locator("#main #services").isVisible()).toBe(true);
  });
});
