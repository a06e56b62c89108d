import type { Page } from "playwright-core";
import { expect, it } from "vitest";

import { faqs } from "~/content/faq";
import { testimonials } from "~/content/testimonials";

import { describeBrowser, PHONE, SIZES, useStack } from "./support/browser";
import { contrastRatio, designFacts } from "./support/design";
import { scrollThrough } from "./support/page";

/** docs/decisions/031-a-page-that-sells.md: the budgets of the design, as a visitor's browser lays the page out. */
const MAX_PAGE_HEIGHT = { phone: 15_500, desktop: 10_000 } as const;
/** At 1280×800 the hero's main button ends above the fold, with room to spare for the browser's chrome. */
const HERO_BUTTON_MAX_BOTTOM = 760;
const ACCENT = "rgb(212, 255, 58)";

describeBrowser("the design: a page that sells (issue 20)", () => {
  // The reviews' stars, quotes and authors line up, in every engine: engines-layout.test.ts.
  const stack = useStack();

  function heroFacts() {
    const heading = document.querySelector("h1")!;
    const range = document.createRange();
    range.selectNodeContents(heading);
    const tops = new Set(
      Array.from(range.getClientRects())
        .filter((rect) => rect.width > 0)
        .map((rect) => Math.round(rect.top)),
    );
    const button = Array.from(document.querySelectorAll('main a[href="#contact"]'))[0]!;
    return { lines: tops.size, buttonBottom: button.getBoundingClientRect().bottom, scrollY: window.scrollY };
  }

  function callsToAction() {
    const size = (el: Element) => {
      const box = el.getBoundingClientRect();
      return { width: Math.round(box.width), height: Math.round(box.height) };
    };
    const submit = document.querySelector('#contact form button[type="submit"]')!;
    const links = Array.from(document.querySelectorAll('a[href="#contact"]'))
      .filter((a) => a.checkVisibility({ visibilityProperty: true }) && a.getBoundingClientRect().width > 0)
      .map((a) => ({ label: (a.textContent ?? "").trim(), ...size(a) }));
    return { submit: size(submit), background: getComputedStyle(submit).backgroundColor, links };
  }

  for (const { name, options } of SIZES) {
    it(`${name}: ${name === "desktop" ? "at 1280×800 the hero's headline takes at most four lines and its main button ends above the fold; " : ""}the form's submit is the strongest call to action (the accent, at least as large as every other link to #contact); every testimonial's stars stand out from their card (3:1 or more); with every section revealed the page is at most ${MAX_PAGE_HEIGHT[name].toLocaleString("en")} px tall and has at most three corner radii and two shadows (pills and circles aside), with the phone menu open too`, async () => {
      const page = await stack.page(options);
      if (name === "desktop") {
        const hero = await page.evaluate(heroFacts);
        expect(hero.scrollY).toBe(0);
        expect(hero.lines).toBeLessThanOrEqual(4);
        expect(hero.buttonBottom).toBeLessThanOrEqual(HERO_BUTTON_MAX_BOTTOM);
      }

      const sizes = await page.evaluate(callsToAction);
      expect(sizes.background).toBe(ACCENT);
      expect(sizes.links.length, "links to #contact on the page").toBeGreaterThanOrEqual(3);
      for (const link of sizes.links) {
        expect(sizes.submit.width, `wider than "${link.label}"`).toBeGreaterThanOrEqual(link.width);
        expect(sizes.submit.height, `as tall as "${link.label}"`).toBeGreaterThanOrEqual(link.height);
      }

      const colours = (await page.evaluate(designFacts, false)).stars;
      expect(colours).toHaveLength(testimonials.length);
      for (const { card, star, background } of colours)
        expect(contrastRatio(star, background), card).toBeGreaterThanOrEqual(3);

      await scrollThrough(page, faqs[0]!.question);
      const height = await page.evaluate(() => document.documentElement.scrollHeight);
      expect(height).toBeLessThanOrEqual(MAX_PAGE_HEIGHT[name]);

      const closed = (await page.evaluate(designFacts, false)).shapes;
      const toggle = page.locator('[aria-controls="mobile-menu"][role="button"]').filter({ visible: true });
      let withMenu = closed;
      if ((await toggle.count()) > 0) {
        await toggle.click();
        await page.locator("#mobile-menu").waitFor({ state: "visible" });
        withMenu = (await page.evaluate(designFacts, false)).shapes;
      }
      const radii = [...new Set([...closed.radii, ...withMenu.radii])];
      const shadows = [...new Set([...closed.shadows, ...withMenu.shadows])];
      const examples = JSON.stringify({ ...closed.examples, ...withMenu.examples }, null, 1);
      expect(radii.length, `radii ${radii.join(" | ")}\n${examples}`).toBeGreaterThan(0);
      expect(radii.length, `radii ${radii.join(" | ")}\n${examples}`).toBeLessThanOrEqual(3);
      expect(shadows.length, `shadows ${shadows.join(" | ")}\n${examples}`).toBeGreaterThan(0);
      expect(shadows.length, `shadows ${shadows.join(" | ")}\n${examples}`).toBeLessThanOrEqual(2);
    });
  }

  async function expectContactLinkAlwaysInView(page: Page): Promise<void> {
    const height = await page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight);
    for (let step = 0; step < 10; step += 1) {
      const y = Math.round((height * step) / 9);
      await page.evaluate((top) => window.scrollTo({ top, behavior: "instant" }), y);
      const found = await page.evaluate(() =>
        Array.from(document.querySelectorAll('a[href="#contact"]')).some((link) => {
          const box = link.getBoundingClientRect();
          if (box.width === 0 || box.top < 0 || box.bottom > window.innerHeight) return false;
          if (box.left < 0 || box.right > window.innerWidth) return false;
          const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
          return top !== null && link.contains(top);
        }),
      );
      expect(found, `no visible link to #contact at scrollY ${y}`).toBe(true);
    }
  }

  it("phone, JavaScript off: a visible link to #contact is in the viewport at ten scroll positions from top to bottom", async () => {
    await expectContactLinkAlwaysInView(await stack.page({ ...PHONE, javaScriptEnabled: false }));
  });

  it("phone: a visible link to #contact is in the viewport at ten scroll positions from top to bottom; the form comes before the contact details; the company-size select matches the inputs (height, padding, chevron of its own, placeholder colour until chosen); the row of reviews is reached with Tab and scrolled with the arrow keys to its last card", async () => {
    const page = await stack.page(PHONE);
    await expectContactLinkAlwaysInView(page);

    const order = await page.evaluate(() => {
      const form = document.querySelector("#contact form")!.getBoundingClientRect();
      const email = document.querySelector('#contact a[href^="mailto:"]')!.getBoundingClientRect();
      return { form: form.top, email: email.top };
    });
    expect(order.form).toBeLessThan(order.email);

    const read = () =>
      page.evaluate(() => {
        const select = document.querySelector<HTMLSelectElement>("#contact-companySize")!;
        const input = document.querySelector<HTMLInputElement>("#contact-company")!;
        const s = getComputedStyle(select);
        const i = getComputedStyle(input);
        return {
          heights: [select.getBoundingClientRect().height, input.getBoundingClientRect().height],
          padding: [s.paddingLeft, i.paddingLeft],
          radius: [s.borderTopLeftRadius, i.borderTopLeftRadius],
          appearance: s.appearance,
          chevron: select.parentElement!.querySelector(".icon-chevron-down") !== null,
          colour: s.color,
          placeholder: getComputedStyle(input, "::placeholder").color,
        };
      });
    const empty = await read();
    expect(empty.heights[0]).toBe(empty.heights[1]);
    expect(empty.padding[0]).toBe(empty.padding[1]);
    expect(empty.radius[0]).toBe(empty.radius[1]);
    expect(empty.appearance).toBe("none");
    expect(empty.chevron).toBe(true);
    expect(empty.colour).toBe(empty.placeholder);
    await page.selectOption("#contact-companySize", "11-50");
    // Chromium restyles `:has(option:checked)` a moment after the change, not synchronously.
    await expect.poll(async () => (await read()).colour).not.toBe(empty.placeholder);

    const row = page.getByRole("region", { name: "More reviews" });
    // One Tab from the section before's last link (the featured review has nothing to focus).
    await page.locator("#testimonials").scrollIntoViewIfNeeded();
    await page.locator("#community a").last().focus();
    await page.keyboard.press("Tab");
    expect(await row.evaluate((el) => el === document.activeElement)).toBe(true);
    const start = await row.evaluate((el) => ({ left: el.scrollLeft, max: el.scrollWidth - el.clientWidth }));
    expect(start.left).toBe(0);
    expect(start.max, "the row is wider than the screen").toBeGreaterThan(100);
    await page.keyboard.press("ArrowRight");
    await expect.poll(() => row.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
    // Arrow by arrow to the end, as a keyboard visitor would (Home and End scroll the page, not the row).
    const atEnd = () => row.evaluate((el) => Math.ceil(el.scrollLeft) >= el.scrollWidth - el.clientWidth - 1);
    for (let press = 0; press < 60 && !(await atEnd()); press += 1) {
      const from = await row.evaluate((el) => el.scrollLeft);
      await page.keyboard.press("ArrowRight");
      // Each arrow moves the row (its scroll is the event waited for), unless the smooth scroll of
      // the arrow before was still on its way to the end, which this one then cannot pass.
      await expect
        .poll(() =>
          row.evaluate(
            (el, before) =>
              el.scrollLeft > before || Math.ceil(el.scrollLeft) >= el.scrollWidth - el.clientWidth - 1,
            from,
          ),
        )
        .toBe(true);
    }
    await expect.poll(atEnd).toBe(true);
    expect(await row.evaluate((el) => el === document.activeElement), "focus stays on the row").toBe(true);
    const last = await page.evaluate(() => {
      const cards = Array.from(document.querySelectorAll("#testimonials article[data-testimonial]"));
      const box = cards.at(-1)!.getBoundingClientRect();
      return { left: box.left, right: box.right, width: window.innerWidth };
    });
    expect(last.left).toBeGreaterThanOrEqual(0);
    expect(last.right).toBeLessThanOrEqual(last.width);
  });
});
