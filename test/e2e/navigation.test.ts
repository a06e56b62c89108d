import type { Page } from "playwright-core";
import { expect, it } from "vitest";

import { describeBrowser, DESKTOP, PHONE, SIZES, useStack } from "./support/browser";
import { expectLandedOn, waitForHydration, waitForScrollToSettle } from "./support/page";

describeBrowser("navigation", () => {
  const stack = useStack();

  async function backToTop(page: Page) {
    await page.evaluate(() => window.scrollTo({ top: 0, behavior: "instant" }));
    await waitForScrollToSettle(page);
  }

  // Smooth scrolling starts at the first intent (app/lib/document/smooth-scroll.ts), so the browser's
  // own scrolls as the page opens (a restored position, a fragment) never glide. The style read as the
  // link is followed is checked, not the position: read from a main thread busy hydrating, it lags
  // behind the compositor's glide.
  for (const hydrated of [false, true])
    it(`desktop, with JavaScript${hydrated ? ", once hydrated" : ", before hydration"}: a header link scrolls smoothly, the page's opening did not`, async () => {
      const page = await stack.page(DESKTOP, {
        hydrate: hydrated,
        before: async (fresh) => {
          if (!hydrated) await fresh.addInitScript(() => (window.requestIdleCallback = () => 0));
          await fresh.addInitScript(() => {
            const behaviour = () => getComputedStyle(document.documentElement).scrollBehavior;
            const seen: Record<string, string> = {};
            Object.assign(window, { scrollBehaviours: seen });
            window.addEventListener("load", () => (seen.load = behaviour()));
            // Bubbling, on the window: after the page's handlers, as the browser follows the link.
            window.addEventListener("click", () => (seen.click = behaviour()));
          });
        },
      });
      await page.locator("header").first().getByRole("link", { name: "Reviews", exact: true }).click();
      await expectLandedOn(page, "#testimonials");
      expect(
        await page.evaluate(() => (window as unknown as { scrollBehaviours: object }).scrollBehaviours),
      ).toEqual({
        load: "auto",
        click: "smooth",
      });
    });

  // Without JavaScript the glide is the stylesheet's (scroll-behavior: smooth): in the task that
  // follows the link the page has not moved yet, where a jump would already have landed. Counting
  // positions on the way would measure the machine's load, not the page (issue 39).
  it("desktop, without JavaScript: a header link glides to its section, and with reduced motion jumps", async () => {
    const page = await stack.page({ ...DESKTOP, javaScriptEnabled: false });
    const header = page.locator("header").first();
    for (const { reducedMotion, label, target } of [
      { reducedMotion: "no-preference", label: "Reviews", target: "#testimonials" },
      { reducedMotion: "reduce", label: "Contact", target: "#contact" },
    ] as const) {
      await page.emulateMedia({ reducedMotion });
      await backToTop(page);
      // The link's own activation, and the position read in the same task (from outside the page,
      // whose own scripts never run without JavaScript).
      const right = await header
        .getByRole("link", { name: label, exact: true })
        .evaluate((anchor: HTMLAnchorElement) => {
          anchor.click();
          return { scrollY: window.scrollY, hash: window.location.hash };
        });
      expect(right.hash).toBe(target);
      if (reducedMotion === "reduce") expect(right.scrollY, label).toBeGreaterThan(1000);
      else expect(right.scrollY, label).toBeLessThan(50);
      await expectLandedOn(page, target);
    }
  });

  // Every in-page link lands its section the same way (one handler, InPageLinks.tsx, and the root's
  // scroll padding): the header's links in every engine, JavaScript on and off, engines-visitor.test.ts;
  // that every link points at a section that exists, test/http/page.test.ts.
  for (const { name, options } of SIZES) {
    it(`${name}: a reload and a return from another page keep the reader's place`, async () => {
      const page = await stack.page(options);
      // The browser restores the reader's place (at an address without a fragment to go to).
      await page.evaluate(() => window.scrollTo({ top: 2400, behavior: "instant" }));
      await waitForScrollToSettle(page);
      const before = await page.evaluate(() => window.scrollY);
      expect(before).toBeGreaterThan(2000);

      await page.reload();
      await waitForHydration(page);
      await waitForScrollToSettle(page);
      expect(Math.abs((await page.evaluate(() => window.scrollY)) - before)).toBeLessThanOrEqual(2);

      await page.goto("/no-such-page");
      // The way back may come from the back/forward cache, which fires no new load events: poll
      // what the reader sees instead of waiting for the network.
      await page.goBack();
      await expect
        .poll(() => page.evaluate((y) => Math.abs(window.scrollY - y), before), { timeout: 10_000 })
        .toBeLessThanOrEqual(2);
    });
  }

  // A menu opened before JavaScript took over stays open through hydration: enhance-on-intent.test.ts.
  it("phone, keyboard: Enter opens the menu; Tab never leaves the open menu for the page behind it (leaving it closes the menu); Escape closes it with focus back on the toggle; Space opens it and Enter on a link lands on its section", async () => {
    const page = await stack.page(PHONE);
    const toggle = page
      .locator('[aria-controls="mobile-menu"][role="button"]')
      .filter({ visible: true })
      .first();
    const menu = page.locator("#mobile-menu");
    await toggle.focus();
    // Focus loads the tooltips, whose swap re-creates the toggle: let that happen before the walk.
    await page
      .locator('[aria-controls="mobile-menu"][role="button"][data-state]')
      .filter({ visible: true })
      .first()
      .waitFor();
    await page.keyboard.press("Enter");
    await expect.poll(() => toggle.getAttribute("aria-expanded")).toBe("true");

    const focus = () =>
      page.evaluate(() => {
        const el = document.activeElement as HTMLElement | null;
        const label = `${el?.tagName.toLowerCase()} "${(el?.innerText || el?.getAttribute("aria-label") || "").trim().slice(0, 30)}"`;
        if (!el || el === document.body) return { where: "nowhere", label, seen: false };
        const inMenu = !!el.closest("#mobile-menu") || el.getAttribute("aria-controls") === "mobile-menu";
        const box = el.getBoundingClientRect();
        const onTop = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
        const seen =
          box.bottom > 0 &&
          box.top < window.innerHeight &&
          !!onTop &&
          (el.contains(onTop) || onTop.contains(el));
        return { where: inMenu ? "menu" : "page", label, seen };
      });

    // Forward: through the menu's links to its Get Started, then one Tab more.
    const panelLinks = await menu.locator("a[href]").count();
    const walk: string[] = [];
    for (let i = 0; i <= panelLinks; i += 1) {
      await page.keyboard.press("Tab");
      const now = await focus();
      const open = (await toggle.getAttribute("aria-expanded")) === "true";
      walk.push(
        `${now.where} ${now.label} (menu ${open ? "open" : "closed"}, ${now.seen ? "seen" : "NOT seen"})`,
      );
      if (now.where !== "menu") {
        expect(open, `focus left the open menu for the page:\n${walk.join("\n")}`).toBe(false);
        expect(now.seen, `the focused control is on screen:\n${walk.join("\n")}`).toBe(true);
      }
    }
    expect(walk[panelLinks - 1], walk.join("\n")).toMatch(/^menu a "Get Started"/);

    // Backward from the toggle: the same promise.
    if ((await toggle.getAttribute("aria-expanded")) !== "true") {
      await toggle.focus();
      await page.keyboard.press("Enter");
      await expect.poll(() => toggle.getAttribute("aria-expanded")).toBe("true");
    }
    await toggle.focus();
    await page.keyboard.press("Shift+Tab");
    const back = await focus();
    if (back.where !== "menu") {
      expect(await toggle.getAttribute("aria-expanded"), `Shift+Tab to ${back.label}`).toBe("false");
      expect(back.seen, `Shift+Tab to ${back.label}`).toBe(true);
    }

    if ((await toggle.getAttribute("aria-expanded")) !== "true") {
      await toggle.focus();
      await page.keyboard.press("Enter");
      await expect.poll(() => toggle.getAttribute("aria-expanded")).toBe("true");
    }
    await page.keyboard.press("Tab");
    await page.keyboard.press("Tab");
    expect((await focus()).where).toBe("menu");
    await page.keyboard.press("Escape");
    await expect.poll(() => toggle.getAttribute("aria-expanded")).toBe("false");
    await expect.poll(() => menu.isVisible()).toBe(false);
    await expect.poll(() => toggle.evaluate((el) => el === document.activeElement)).toBe(true);

    await page.keyboard.press("Space");
    await expect.poll(() => toggle.getAttribute("aria-expanded")).toBe("true");
    await menu.getByRole("link", { name: "About", exact: true }).focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => menu.isVisible()).toBe(false);
    await expectLandedOn(page, "#about");
  });
});
