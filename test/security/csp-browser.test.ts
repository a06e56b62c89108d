import type { Page } from "playwright-core";
import { expect, it } from "vitest";

import { describeBrowser, DESKTOP, PHONE, useStack } from "../e2e/support/browser";
import { fillContact, keepTrafficLocal, submitButton, waitForHydration } from "../e2e/support/page";
import { SUCCESS, VALID_CONTACT } from "../e2e/support/spec-texts";

/**
 * The enforced nonce policy must not block anything the site itself does:
 * every violation (a blocked script, style, image, connection or frame) is
 * reported both as a `securitypolicyviolation` event and in the console.
 */
interface Watched {
  page: Page;
  problems(): Promise<string[]>;
}

describeBrowser("Content-Security-Policy in Chromium (JavaScript on)", () => {
  const stack = useStack();

  async function watch(options = DESKTOP): Promise<Watched> {
    const context = await stack.context(options);
    await keepTrafficLocal(context);
    const page = await context.newPage();
    const console: string[] = [];
    page.on("console", (message) => {
      const text = message.text();
      if (/content security policy|content-security-policy|refused to/i.test(text)) console.push(`console: ${text}`);
    });
    page.on("pageerror", (error) => console.push(`pageerror: ${error.message}`));
    await page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { __cspViolations: string[] }).__cspViolations = seen;
      document.addEventListener("securitypolicyviolation", (event) => {
        seen.push(`${event.effectiveDirective} blocked ${event.blockedURI || "inline"} (${event.sourceFile}:${event.lineNumber})`);
      });
    });
    return {
      page,
      async problems() {
        const events = await page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations);
        return [...console, ...events.map((event) => `event: ${event}`)];
      },
    };
  }

  /** Scroll the whole page so that lazily loaded parts (testimonials, tooltips, FAQ) run too. */
  async function exercise(page: Page) {
    await page.evaluate(async () => {
      const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
      for (let y = 0; y <= document.documentElement.scrollHeight; y += window.innerHeight / 2) {
        window.scrollTo({ top: y, behavior: "instant" });
        await pause(50);
      }
      await pause(1200);
    });
    await page.waitForLoadState("networkidle");
  }

  for (const [name, options] of [
    ["desktop", DESKTOP],
    ["phone", PHONE],
  ] as const) {
    it(`${name}: the home page runs without a violation, scripts hydrated`, async () => {
      const { page, problems } = await watch(options);
      await page.goto("/");
      await waitForHydration(page);
      await exercise(page);
      const faq = page.locator("#faq");
      const more = faq.getByRole("button", { name: "View More Questions" });
      if (await more.count()) await more.click();
      const first = faq.getByRole("button").first();
      await first.hover();
      await first.click();
      await page.waitForTimeout(300);
      expect(await problems()).toEqual([]);
    });
  }

  it("a contact submission (fetch + toast) causes no violation", async () => {
    stack.fake.reset();
    const { page, problems } = await watch();
    await page.goto("/");
    await waitForHydration(page);
    await fillContact(page, { ...VALID_CONTACT });
    const posted = page.waitForResponse((response) => response.request().method() === "POST");
    await submitButton(page).click();
    expect((await posted).status()).toBe(200);
    // The toast with JavaScript (or, until the form is enhanced, the server's notice).
    await expect
      .poll(() => page.getByText(SUCCESS.title).count(), { timeout: 15_000 })
      .toBeGreaterThan(0);
    expect(stack.fake.requests.length).toBe(1);
    await page.waitForLoadState("networkidle");
    expect(await problems()).toEqual([]);
  });

  it("the 404 page causes no violation", async () => {
    const { page, problems } = await watch();
    const response = await page.goto("/no/such/page");
    expect(response?.status()).toBe(404);
    await waitForHydration(page);
    expect(await problems()).toEqual([]);
  });

  it("the policy really is enforced: an injected inline event handler is blocked and reported", async () => {
    const { page, problems } = await watch();
    await page.goto("/");
    await waitForHydration(page);
    const ran = await page.evaluate(() => {
      // What an HTML injection would try: markup with an inline handler (it has no nonce).
      document.body.insertAdjacentHTML("beforeend", '<img alt="" src="data:," onload="window.__injected=true">');
      return new Promise<boolean>((resolve) =>
        setTimeout(() => resolve(Boolean((window as unknown as { __injected?: boolean }).__injected)), 300),
      );
    });
    expect(ran).toBe(false);
    expect((await problems()).some((problem) => /script-src/.test(problem))).toBe(true);
  });
});
