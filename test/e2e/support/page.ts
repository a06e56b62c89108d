import type { BrowserContext, Locator, Page } from "playwright-core";
import { expect } from "vitest";

import type { ContactValues } from "./spec-texts";

/**
 * The browser never leaves 127.0.0.1: requests to any other host (external links opened in a
 * new tab, a stray third-party script) are answered locally with a stub page.
 */
export async function keepTrafficLocal(context: BrowserContext): Promise<string[]> {
  const blocked: string[] = [];
  await context.route(
    (url) => url.hostname !== "127.0.0.1",
    async (route) => {
      blocked.push(route.request().url());
      await route.fulfill({ status: 200, contentType: "text/html", body: "<title>external</title>external" });
    },
  );
  return blocked;
}

/** Waits until the page stops scrolling (smooth scrolling settles), or 3 s pass. */
export async function waitForScrollToSettle(page: Page): Promise<void> {
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        let last = window.scrollY;
        let stableFrames = 0;
        const started = performance.now();
        const tick = () => {
          const now = window.scrollY;
          stableFrames = now === last ? stableFrames + 1 : 0;
          last = now;
          if (stableFrames >= 8 || performance.now() - started > 3000) resolve();
          else requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
      }),
  );
}

export interface Landing {
  top: number;
  headerBottom: number;
  viewportHeight: number;
  atBottom: boolean;
}

/** Where a target's top is relative to the fixed header and the viewport. */
export async function landing(page: Page, selector: string): Promise<Landing> {
  return page.evaluate((sel) => {
    const target = document.querySelector(sel);
    if (!target) throw new Error(`no element ${sel}`);
    const header = Array.from(document.querySelectorAll("header")).find((el) =>
      ["fixed", "sticky"].includes(getComputedStyle(el).position),
    );
    const scroller = document.scrollingElement ?? document.documentElement;
    return {
      top: target.getBoundingClientRect().top,
      headerBottom: header ? header.getBoundingClientRect().bottom : 0,
      viewportHeight: window.innerHeight,
      atBottom: Math.ceil(window.scrollY + window.innerHeight) >= scroller.scrollHeight - 1,
    };
  }, selector);
}

/**
 * Asserts that the section has landed: its top is in view, not under the fixed header, and (unless
 * the page cannot scroll further) close below the header.
 */
export async function expectLandedOn(page: Page, selector: string): Promise<void> {
  await waitForScrollToSettle(page);
  const where = await landing(page, selector);
  const context = `${selector}: ${JSON.stringify(where)}`;
  expect(where.headerBottom, `fixed header found (${context})`).toBeGreaterThan(0);
  expect(where.top, `top below the fixed header (${context})`).toBeGreaterThanOrEqual(where.headerBottom - 2);
  expect(where.top, `top in view (${context})`).toBeLessThan(where.viewportHeight - 40);
  if (!where.atBottom) {
    expect(where.top - where.headerBottom, `top close below the header (${context})`).toBeLessThanOrEqual(96);
  }
}

export function contactForm(page: Page): Locator {
  return page.locator("#contact form").first();
}

export function field(page: Page, name: keyof ContactValues): Locator {
  return contactForm(page).locator(`[name="${name}"]`);
}

export async function fillContact(page: Page, values: ContactValues): Promise<void> {
  for (const [name, value] of Object.entries(values) as [keyof ContactValues, string][]) {
    const input = field(page, name);
    if (name === "companySize") await input.selectOption(value);
    else await input.fill(value);
  }
}

export async function contactValues(page: Page): Promise<ContactValues> {
  const entries = await Promise.all(
    (["name", "email", "phone", "company", "website", "companySize", "industry", "message"] as const).map(
      async (name) => [name, await field(page, name).inputValue()] as const,
    ),
  );
  return Object.fromEntries(entries) as ContactValues;
}

export function submitButton(page: Page): Locator {
  return contactForm(page).locator('button[type="submit"], button:not([type])').first();
}

/** Counts the POST requests the page sends (form submissions), from now on. */
export function countPosts(page: Page): { readonly count: number } {
  const counter = { count: 0 };
  page.on("request", (request) => {
    if (request.method() === "POST") counter.count += 1;
  });
  return counter;
}

/**
 * Waits until JavaScript has taken over the page (React hydrated), so that clicks reach the enhanced
 * behaviour rather than the native fallback.
 */
export async function waitForHydration(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const main = document.getElementById("main");
    if (!main) return false;
    // React attaches its fiber to hydrated DOM nodes under keys starting with __react.
    return Object.keys(main).some((key) => key.startsWith("__react"));
  });
  await page.waitForLoadState("networkidle");
}

/**
 * The toast (JS): a Radix toast root is an `li` inside the notifications region. Any equally
 * accessible toast that is a list item in a labelled region passes too.
 */
export function toast(page: Page, title: string): Locator {
  return page.getByRole("region").locator("li").filter({ hasText: title }).first();
}

/** The notice the server renders next to the form without JavaScript. */
export function serverNotice(page: Page, role: "alert" | "status", title: string): Locator {
  return page.locator("#contact").getByRole(role).filter({ hasText: title }).first();
}
