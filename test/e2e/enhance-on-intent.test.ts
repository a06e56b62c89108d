import type { Page, Route } from "playwright-core";
import { expect, it } from "vitest";

import { faqs } from "~/content/faq";

import { describeBrowser, PHONE, SIZES, useStack } from "./support/browser";
import {
  contactValues,
  field,
  fillContact,
  keepTrafficLocal,
  serverNotice,
  submitAndSettle,
  submitButton,
  twoFrames,
  waitForFaqAccordion,
  waitForHydration,
} from "./support/page";
import { SUCCESS, uniqueContact } from "./support/spec-texts";

/**
 * Enhance on intent (decision 036): the page's JavaScript is requested only at the visitor's first
 * interaction or when the browser is idle after load, and whatever the visitor does while it loads
 * (a tap, typed text, a focus, a submission) is kept through hydration.
 */

const isScript = (url: URL) => url.pathname.startsWith("/build/") && url.pathname.endsWith(".js");

function scriptRequests(page: Page): string[] {
  const requested: string[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (isScript(url)) requested.push(url.pathname);
  });
  return requested;
}

/** The browser is never idle on this page: only an interaction can start the enhancement. */
async function neverIdle(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const asked = { count: 0 };
    Object.assign(window, { idleAsked: asked });
    window.requestIdleCallback = () => {
      asked.count += 1;
      return 0;
    };
  });
}

/** The page's loader has asked for idle time (neverIdle counts it): it chose to wait, and waits on. */
async function waitForIdleAsked(page: Page): Promise<void> {
  await page.waitForFunction(
    () => (window as unknown as { idleAsked: { count: number } }).idleAsked.count > 0,
  );
}

/** Holds every script response until `release()`: the visitor acts while the JavaScript loads. */
function holdScripts() {
  const waiting: Route[] = [];
  let released = false;
  return {
    install: (page: Page) =>
      page.route(isScript, async (route) => {
        if (released) return route.continue();
        waiting.push(route);
      }),
    held: () => waiting.length,
    release() {
      released = true;
      for (const route of waiting.splice(0)) void route.continue();
    },
  };
}

async function differingPixels(page: Page, a: Buffer, b: Buffer): Promise<number> {
  return page.evaluate(
    async ([x, y]) => {
      const load = (src: string) =>
        new Promise<HTMLImageElement>((resolve) => {
          const image = new Image();
          image.onload = () => resolve(image);
          image.src = src;
        });
      const pixels = (image: HTMLImageElement) => {
        const canvas = document.createElement("canvas");
        canvas.width = image.width;
        canvas.height = image.height;
        const context = canvas.getContext("2d")!;
        context.drawImage(image, 0, 0);
        return context.getImageData(0, 0, image.width, image.height).data;
      };
      const [first, second] = await Promise.all([load(x!), load(y!)]);
      const [p, q] = [pixels(first), pixels(second)];
      let differing = 0;
      for (let i = 0; i < p.length; i += 4)
        if (
          Math.max(
            Math.abs(p[i]! - q[i]!),
            Math.abs(p[i + 1]! - q[i + 1]!),
            Math.abs(p[i + 2]! - q[i + 2]!),
          ) > 40
        )
          differing += 1;
      return differing;
    },
    [a, b].map((png) => `data:image/png;base64,${png.toString("base64")}`),
  );
}

const summary = (page: Page, index: number) =>
  page.locator(`#faq details[data-faq-item="${index}"] > summary`);
const trigger = (page: Page, index: number) =>
  page.locator("#faq").getByRole("button", { name: faqs[index]!.question, exact: true });

describeBrowser("enhance on intent", () => {
  const stack = useStack();

  it("no script is requested before the first interaction, however long the visitor only looks; a tap then loads it and opens the FAQ item it was aimed at", async () => {
    const context = await stack.context(PHONE);
    await keepTrafficLocal(context);
    const page = await context.newPage();
    await neverIdle(page);
    const requested = scriptRequests(page);
    await page.goto("/", { waitUntil: "load" });
    // The loader has set itself to wait for an intent or idle time (which never comes here), and
    // every request the page made on its own has ended.
    await waitForIdleAsked(page);
    await page.waitForLoadState("networkidle");
    expect(requested).toEqual([]);

    await summary(page, 1).tap();
    await expect.poll(() => requested.length).toBeGreaterThanOrEqual(5);
    await waitForHydration(page);
    await waitForFaqAccordion(page, faqs[0]!.question);
    expect(await trigger(page, 1).getAttribute("aria-expanded")).toBe("true");
    expect(await trigger(page, 0).getAttribute("aria-expanded")).toBe("false");
  });

  // Without any interaction the page is enhanced once the browser is idle: paint-first.test.ts.

  it("a tap, a choice and typed text made while the scripts load survive hydration, with the focus and a counter that counts them", async () => {
    const scripts = holdScripts();
    const page = await stack.page(PHONE, { hydrate: false, before: scripts.install });

    await summary(page, 2).tap();
    await expect.poll(() => scripts.held()).toBeGreaterThan(0);
    expect(await page.locator('#faq details[data-faq-item="2"]').getAttribute("open")).toBe("");
    await field(page, "name").fill("Jane Smith");
    await field(page, "companySize").selectOption("51-200");
    const message = "Typed while the page was still loading its scripts.";
    await field(page, "message").click();
    await field(page, "message").pressSequentially(message);

    scripts.release();
    await waitForHydration(page);
    const values = await contactValues(page);
    expect(values).toMatchObject({ name: "Jane Smith", companySize: "51-200", message });
    await expect
      .poll(() => page.getByTestId("contact-message-count").textContent())
      .toBe(`${message.length}/2000`);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("contact-message");

    // The accordion takes over once the FAQ nears the viewport, with the item the tap opened.
    await page.locator("#faq").scrollIntoViewIfNeeded();
    await waitForFaqAccordion(page, faqs[0]!.question);
    expect(await trigger(page, 2).getAttribute("aria-expanded")).toBe("true");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("contact-message");
  });

  it("hydration keeps the menu's toggles and panel (the same elements, enhanced), and the focus on the toggle", async () => {
    const scripts = holdScripts();
    const page = await stack.page(PHONE, { hydrate: false, before: scripts.install });
    // A mark on each element of the server's menu: an element replaced by hydration loses it.
    await page.evaluate(() => {
      for (const el of document.querySelectorAll('[aria-controls="mobile-menu"], #mobile-menu'))
        (el as unknown as { fromServer: boolean }).fromServer = true;
    });
    await page.locator("#menu-toggle").focus();
    await expect.poll(() => scripts.held()).toBeGreaterThan(0);

    scripts.release();
    await waitForHydration(page);
    await page.locator('#menu-toggle[role="button"]').waitFor();
    const menu = await page.evaluate(() => {
      const elements = Array.from(document.querySelectorAll('[aria-controls="mobile-menu"], #mobile-menu'));
      return {
        count: elements.length,
        kept: elements.every((el) => (el as unknown as { fromServer?: boolean }).fromServer === true),
        focused: document.activeElement?.id,
      };
    });
    expect(menu).toEqual({ count: 3, kept: true, focused: "menu-toggle" });
    // Enhanced in place: Enter opens the menu without navigating, and the focus follows to Close menu.
    await page.keyboard.press("Enter");
    await expect
      .poll(() => page.evaluate(() => document.getElementById("mobile-menu")!.checkVisibility()))
      .toBe(true);
    expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-expanded"))).toBe("true");
    expect(new URL(page.url()).hash).toBe("");
  });

  it("a menu opened by its link just before hydration stays open through it, and the address drops its fragment", async () => {
    const scripts = holdScripts();
    const page = await stack.page(PHONE, { hydrate: false, before: scripts.install });
    await page.locator("#menu-toggle").tap();
    await expect.poll(() => scripts.held()).toBeGreaterThan(0);
    expect(new URL(page.url()).hash).toBe("#mobile-menu");
    expect(await page.evaluate(() => document.getElementById("mobile-menu")!.checkVisibility())).toBe(true);

    scripts.release();
    await waitForHydration(page);
    await page.locator('#menu-toggle[role="button"]').waitFor({ state: "attached" });
    expect(await page.evaluate(() => document.getElementById("mobile-menu")!.checkVisibility())).toBe(true);
    expect(new URL(page.url()).hash).toBe("");
    // Close menu, now a button, closes it in place.
    await page.locator('[aria-controls="mobile-menu"][role="button"]').filter({ visible: true }).tap();
    await expect
      .poll(() => page.evaluate(() => document.getElementById("mobile-menu")!.checkVisibility()))
      .toBe(false);
    expect(new URL(page.url()).hash).toBe("");
  });

  it("a submission made while the scripts load is posted without them, and answered once", async () => {
    const scripts = holdScripts();
    const page = await stack.page(PHONE, { hydrate: false, before: scripts.install });
    const before = stack.fake.requests.length;
    await fillContact(page, uniqueContact());
    await expect.poll(() => scripts.held()).toBeGreaterThan(0);

    await submitAndSettle(page, () => submitButton(page).click(), /contact=sent/);
    await expect.poll(() => serverNotice(page, "status", SUCCESS.title).isVisible()).toBe(true);
    expect(stack.fake.requests.length - before).toBe(1);
    scripts.release();
  });

  for (const { name, options } of SIZES)
    for (const at of ["#main", "#testimonials"])
      it(`${name}: hydration changes nothing on screen (the page scrolled to ${at})`, async () => {
        const scripts = holdScripts();
        const page = await stack.page(options, {
          hydrate: false,
          before: (fresh) => Promise.all([neverIdle(fresh), scripts.install(fresh)]),
        });
        // The parts rendered and the page at its place, as idle time and a reader would leave them.
        await page.evaluate((target) => {
          document
            .querySelectorAll<HTMLElement>("main > section ~ section, body > footer")
            .forEach((part) => {
              part.style.contentVisibility = "visible";
            });
          document.querySelector(target)!.scrollIntoView({ behavior: "instant" });
        }, at);
        await twoFrames(page);
        const before = await page.screenshot();

        await page.evaluate(() => window.dispatchEvent(new Event("pointerdown")));
        scripts.release();
        await waitForHydration(page);
        // Whatever hydration loads and changes has arrived and been painted.
        await page.waitForLoadState("networkidle");
        await twoFrames(page);
        const after = await page.screenshot();
        expect(await differingPixels(page, before, after)).toBe(0);
      });
});
