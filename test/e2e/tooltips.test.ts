import type { Locator, Page } from "playwright-core";
import { expect, it } from "vitest";

import { describeBrowser, useStack } from "./support/browser";
import { twoFrames } from "./support/page";

describeBrowser("tooltips on icon-only controls", () => {
  const stack = useStack();

  /** The first footer social link with an icon and no visible text: the tooltip gives sighted users its label. */
  async function firstSocialLink(page: Page): Promise<{ link: Locator; label: string }> {
    const links = page.locator("footer").last().locator("a[target=_blank]");
    for (let i = 0; i < (await links.count()); i += 1) {
      const link = links.nth(i);
      if ((await link.innerText()).trim() === "")
        return { link, label: (await link.getAttribute("aria-label")) ?? "" };
    }
    throw new Error("no icon-only social link in the footer");
  }

  /** Texts of the tooltips open now (Radix mounts the content only while open). Never waits. */
  const openTooltips = (page: Page) =>
    page.evaluate(() =>
      Array.from(document.querySelectorAll("[role=tooltip]"))
        .filter((el) => el.closest("[data-state]")?.getAttribute("data-state") !== "closed")
        .map((el) => (el.textContent ?? "").trim()),
    );

  // The footer's two icon-only links and their names (aria-label): test/http/page.test.ts.
  it("hovering shows the label, and moving away hides it (the delay, to the millisecond: test/components/tooltip.test.tsx)", async () => {
    const page = await stack.page();
    const { link, label } = await firstSocialLink(page);
    // To the page footer (the last <footer>; testimonial cards have their own), the pointer away from
    // the icons, and there again once what the page loads on its own (late sections) may have moved it.
    const toFooter = () =>
      page.evaluate(() =>
        Array.from(document.querySelectorAll("footer"))
          .pop()
          ?.scrollIntoView({ block: "end", behavior: "instant" }),
      );
    await toFooter();
    await page.mouse.move(0, 0);
    await page.waitForLoadState("networkidle");
    await toFooter();
    await link.hover();
    await expect.poll(() => openTooltips(page), { timeout: 10_000 }).not.toEqual([]);
    const [shown] = await openTooltips(page);
    expect(label, "the tooltip shows the control's label").toContain(shown);

    await page.mouse.move(5, 5);
    await expect.poll(() => openTooltips(page)).toEqual([]);
  });

  it("Tab onto an off-screen control shows its tooltip once Radix has loaded (the scroll that focus causes does not close it); Escape hides it", async () => {
    const page = await stack.page();
    const { link, label } = await firstSocialLink(page);
    // On a desktop Radix loads when the browser is idle: wait for it (its triggers carry data-state).
    await expect
      .poll(() => link.evaluate((el) => el.hasAttribute("data-state")), { timeout: 10_000 })
      .toBe(true);
    expect(
      await link.evaluate((el) => el.getBoundingClientRect().top > window.innerHeight),
      "the footer starts off-screen",
    ).toBe(true);
    await link.evaluate((el: Element) => {
      const all = Array.from(
        document.querySelectorAll<HTMLElement>("a[href], button, input, select, textarea"),
      );
      all[all.indexOf(el as HTMLElement) - 1]?.focus({ preventScroll: true });
    });
    await page.keyboard.press("Tab");
    expect(await link.evaluate((el) => el === document.activeElement)).toBe(true);
    await expect.poll(() => openTooltips(page)).not.toEqual([]);
    // Still open two frames later, after the scroll events of the focus have been delivered.
    await twoFrames(page);
    const [shown] = await openTooltips(page);
    expect(shown, "the tooltip stays open after the focus scrolled the control into view").toBeTruthy();
    expect(label, "the tooltip shows the control's label").toContain(shown);
    await page.keyboard.press("Escape");
    await expect.poll(() => openTooltips(page)).toEqual([]);
  });
});
