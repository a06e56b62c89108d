import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";

import { describeBrowser, DESKTOP, launchChromium, PHONE, useStack } from "../e2e/support/browser";
import { type AppServer, startAppServer } from "../support/app-server";
import { faqs } from "~/content/faq";

import {
  fillContact,
  keepTrafficLocal,
  scrollThrough,
  submitButton,
  toast,
  waitForHydration,
} from "../e2e/support/page";
import { SUCCESS, uniqueContact } from "../e2e/support/spec-texts";

/**
 * The enforced hash policy must not block anything the site itself does: every violation is
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
      if (/content security policy|content-security-policy|refused to/i.test(text))
        console.push(`console: ${text}`);
    });
    page.on("pageerror", (error) => console.push(`pageerror: ${error.message}`));
    await page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { __cspViolations: string[] }).__cspViolations = seen;
      document.addEventListener("securitypolicyviolation", (event) => {
        seen.push(
          `${event.effectiveDirective} blocked ${event.blockedURI || "inline"} (${event.sourceFile}:${event.lineNumber})`,
        );
      });
    });
    return {
      page,
      async problems() {
        const events = await page.evaluate(
          () => (window as unknown as { __cspViolations: string[] }).__cspViolations,
        );
        return [...console, ...events.map((event) => `event: ${event}`)];
      },
    };
  }

  for (const [name, options] of [
    ["desktop", DESKTOP],
    ["phone", PHONE],
  ] as const) {
    it(`${name}: the home page runs without a violation, scripts hydrated`, async () => {
      const { page, problems } = await watch(options);
      await page.goto("/");
      await waitForHydration(page);
      // Every lazily loaded part runs too (testimonials, tooltips, the FAQ's accordion).
      await scrollThrough(page, faqs[0]!.question);
      const faq = page.locator("#faq");
      const more = faq.getByRole("button", { name: "View More Questions" });
      if (await more.count()) await more.click();
      const first = faq.getByRole("button").first();
      await first.hover();
      await first.click();
      await expect.poll(() => first.getAttribute("aria-expanded")).toBe("true");
      // Two frames and a task after the answer opened: a violation it caused has been reported.
      await page.evaluate(
        () =>
          new Promise((resolve) =>
            requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve))),
          ),
      );
      expect(await problems()).toEqual([]);
    });
  }

  it("a contact submission with JavaScript (fetch + lazily loaded toast) causes no violation", async () => {
    stack.fake.reset();
    const { page, problems } = await watch();
    await page.goto("/");
    await waitForHydration(page);
    await fillContact(page, uniqueContact());
    const posted = page.waitForResponse((response) => response.request().method() === "POST");
    await submitButton(page).click();
    const response = await posted;
    expect(response.status()).toBe(200);
    expect(new URL(response.url()).pathname).toMatch(/\.data$/);
    await expect.poll(() => toast(page, SUCCESS.title).count(), { timeout: 15_000 }).toBeGreaterThan(0);
    expect(stack.fake.requests.length).toBe(1);
    // The lead was committed before the call: the function is told its id, to recognise a retry.
    expect(stack.fake.requests[0]?.headers["idempotency-key"]).toMatch(/^[0-9a-f-]{36}$/);
    await page.waitForLoadState("networkidle");
    expect(await problems()).toEqual([]);
  });

  it("the document a plain form POST returns (no-JS path) causes no violation", async () => {
    stack.fake.reset();
    const { page, problems } = await watch();
    await page.goto("/");
    await waitForHydration(page);
    const navigation = page.waitForNavigation();
    await page.evaluate((values) => {
      // A native submission, as a browser without JavaScript sends it.
      const form = document.createElement("form");
      form.method = "post";
      form.action = "/?index#contact";
      for (const [name, value] of Object.entries(values)) {
        const input = document.createElement("input");
        input.type = "hidden";
        input.name = name;
        input.value = value;
        form.append(input);
      }
      document.body.append(form);
      HTMLFormElement.prototype.submit.call(form);
    }, uniqueContact());
    const response = await navigation;
    expect(response?.status()).toBe(200);
    await waitForHydration(page);
    expect(await page.getByRole("status").filter({ hasText: SUCCESS.title }).count()).toBeGreaterThan(0);
    expect(stack.fake.requests.length).toBe(1);
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
      // The browser's report that it blocked the handler: after it, the handler could have run.
      const blocked = new Promise((resolve) => document.addEventListener("securitypolicyviolation", resolve));
      const image = new Promise((resolve) => {
        // What an HTML injection would try: markup with an inline handler (no hash allows it).
        document.body.insertAdjacentHTML(
          "beforeend",
          '<img alt="" src="data:," onload="window.__injected=true">',
        );
        const injected = document.body.lastElementChild!;
        injected.addEventListener("load", resolve);
        injected.addEventListener("error", resolve);
      });
      return Promise.all([blocked, image]).then(() =>
        Boolean((window as unknown as { __injected?: boolean }).__injected),
      );
    });
    expect(ran).toBe(false);
    expect((await problems()).some((problem) => /script-src/.test(problem))).toBe(true);
  });
});

describeBrowser("Content-Security-Policy with GA_MEASUREMENT_ID set", () => {
  let server: AppServer;
  let browser: Browser;
  beforeAll(async () => {
    server = await startAppServer({
      GA_MEASUREMENT_ID: "G-CSPTEST1",
    });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it("gtag.js (consent given) and its inline setup run under the policy, without a violation", async () => {
    const context = await browser.newContext({ baseURL: server.url });
    try {
      // Nothing leaves the machine: Google's script is a local stand-in with the right type.
      await context.route(
        (url) => url.hostname !== "127.0.0.1",
        async (route) => {
          const url = new URL(route.request().url());
          if (url.hostname === "www.googletagmanager.com" && url.pathname === "/gtag/js") {
            await route.fulfill({
              status: 200,
              contentType: "application/javascript",
              body: "window.__gtagLoaded = true;",
            });
          } else {
            await route.fulfill({ status: 204, body: "" });
          }
        },
      );
      const page = await context.newPage();
      const reported: string[] = [];
      page.on("console", (message) => {
        if (/content security policy|refused to/i.test(message.text())) reported.push(message.text());
      });
      await page.addInitScript(() => {
        // A visitor who accepted analytics on an earlier visit (decision 047): the tag loads at once.
        localStorage.setItem("analytics-consent", "granted");
        document.addEventListener("securitypolicyviolation", (event) => {
          (window as unknown as { __violations?: string[] }).__violations ??= [];
          (window as unknown as { __violations: string[] }).__violations.push(
            `${event.effectiveDirective} ${event.blockedURI}`,
          );
        });
      });
      await page.goto("/");
      await waitForHydration(page);
      const state = await page.evaluate(() => {
        const w = window as unknown as {
          __gtagLoaded?: boolean;
          gtag?: unknown;
          dataLayer?: unknown[];
          __violations?: string[];
        };
        return {
          loaded: Boolean(w.__gtagLoaded),
          gtag: typeof w.gtag,
          config: JSON.stringify(w.dataLayer?.map((entry) => Array.from(entry as ArrayLike<unknown>))),
          violations: w.__violations ?? [],
        };
      });
      expect(state.loaded).toBe(true);
      expect(state.gtag).toBe("function");
      expect(state.config).toContain('["config","G-CSPTEST1"]');
      expect([...reported, ...state.violations]).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
