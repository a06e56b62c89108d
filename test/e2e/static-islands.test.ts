import type { Page } from "playwright-core";
import { expect, it } from "vitest";

import { faqs } from "~/content/faq";

import { describeBrowser, PHONE, useStack } from "./support/browser";
import { fillContact, submitButton, toast } from "./support/page";
import { SUCCESS, uniqueContact } from "./support/spec-texts";

/**
 * The static sections (021-static-islands) are server HTML that React never hydrates: with
 * JavaScript on, their markup must stay exactly as the server sent it through hydration and
 * through every later re-render (menu, FAQ, a contact submission's revalidation).
 */
describeBrowser("static islands in the browser", () => {
  const stack = useStack();

  /** Each island's markup as the server sent it, parsed from the HTML document itself. */
  async function serverMarkup(page: Page): Promise<Record<string, string>> {
    return page.evaluate(async () => {
      const html = await (await fetch("/", { headers: { Accept: "text/html" } })).text();
      const doc = new DOMParser().parseFromString(html, "text/html");
      return Object.fromEntries(
        Array.from(doc.querySelectorAll("[data-island]"), (el) => [
          el.getAttribute("data-island")!,
          el.innerHTML,
        ]),
      );
    });
  }

  async function liveMarkup(page: Page): Promise<Record<string, string>> {
    return page.evaluate(() =>
      Object.fromEntries(
        Array.from(document.querySelectorAll("[data-island]"), (el) => [
          el.getAttribute("data-island")!,
          el.innerHTML,
        ]),
      ),
    );
  }

  it("keeps every island's server markup after hydration, and React does not own its inside", async () => {
    const page = await stack.page(PHONE);
    const server = await serverMarkup(page);
    expect(Object.keys(server).sort()).toEqual(
      ["about", "academy", "community", "hero", "json-ld", "process", "results", "services"].sort(),
    );
    for (const [name, html] of Object.entries(server)) expect(html.length, name).toBeGreaterThan(100);
    expect(await liveMarkup(page)).toEqual(server);

    const ownership = await page.evaluate(() =>
      Array.from(document.querySelectorAll("section[data-island]"), (section) => ({
        name: section.getAttribute("data-island"),
        hydrated: Object.keys(section).some((key) => key.startsWith("__react")),
        insideHydrated: Array.from(section.querySelectorAll("*")).some((el) =>
          Object.keys(el).some((key) => key.startsWith("__react")),
        ),
      })),
    );
    expect(ownership.length).toBe(7);
    for (const island of ownership) {
      expect(island.hydrated, `${island.name}: the <section> is React's`).toBe(true);
      expect(island.insideHydrated, `${island.name}: its inside is not hydrated`).toBe(false);
    }
  });

  it("keeps the islands through the menu, the FAQ and a contact submission's revalidation", async () => {
    const page = await stack.page(PHONE);
    const server = await serverMarkup(page);

    const toggle = page.locator('[aria-controls="mobile-menu"]').filter({ visible: true }).first();
    await toggle.click();
    await expect.poll(() => toggle.getAttribute("aria-expanded")).toBe("true");
    await toggle.click();
    await expect.poll(() => toggle.getAttribute("aria-expanded")).toBe("false");
    expect(await liveMarkup(page)).toEqual(server);

    await page.locator("#faq").scrollIntoViewIfNeeded();
    const firstQuestion = page.locator("#faq").getByRole("button", { name: faqs[0]!.question, exact: true });
    await firstQuestion.waitFor();
    await firstQuestion.click();
    await expect.poll(() => firstQuestion.getAttribute("aria-expanded")).toBe("true");
    expect(await liveMarkup(page)).toEqual(server);

    stack.fake.reset();
    await page.locator("#contact").scrollIntoViewIfNeeded();
    await fillContact(page, uniqueContact());
    await submitButton(page).click();
    await expect.poll(() => toast(page, SUCCESS.title).isVisible(), { timeout: 8000 }).toBe(true);
    await page.waitForLoadState("networkidle");
    expect(stack.fake.requests).toHaveLength(1);
    expect(await liveMarkup(page)).toEqual(server);
  });
});
