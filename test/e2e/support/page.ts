import type { BrowserContext, Locator, Page } from "playwright-core";
import { expect } from "vitest";

import { DeadlineError, treeActivity, withDeadline } from "../../support/deadline";
import type { ContactValues } from "./spec-texts";
import { CONTACT_FIELDS, contactField } from "~/content/contact-fields";

/** Keeps the browser on 127.0.0.1: any other host is answered locally with a stub page. */
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

type Marked = { beforeSubmit?: boolean };

/**
 * Runs `action` (a no-JS submit) and waits for a new document, at `url` when given: one without the
 * mark the test set on the document on screen (set and read by the test, as DevTools would, so
 * JavaScript may be off). Never for one particular navigation: a double click's second submit aborts
 * the first, and a waitForURL bound to that one fails with `net::ERR_ABORTED` (issue 24).
 */
export async function submitAndSettle(
  page: Page,
  action: () => Promise<unknown>,
  url?: RegExp,
): Promise<void> {
  await page.evaluate(() => ((window as unknown as Marked).beforeSubmit = true));
  await action();
  const isNew = () => !(window as unknown as Marked).beforeSubmit && document.readyState !== "loading";
  // Between two documents there is no context to evaluate in: not there yet.
  await expect.poll(() => page.evaluate(isNew).catch(() => false), { timeout: 20_000 }).toBe(true);
  if (url) await expect.poll(() => page.url(), { timeout: 20_000 }).toMatch(url);
}

export const answeredSubmissions = (serverOutput: string): number =>
  serverOutput.split("\n").filter((line) => line.includes('"event":"contact_submission"')).length;

/** Resolves once the page has painted two more frames (with JavaScript on: without, none is called). */
export async function twoFrames(page: Page): Promise<void> {
  await page.evaluate(
    () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
  );
}

/**
 * Waits until smooth scrolling settles (three still frames), or 3 s pass. Without JavaScript the page
 * runs no animation-frame callbacks, so the test polls the position itself.
 */
export async function waitForScrollToSettle(page: Page): Promise<void> {
  const framed = await page.evaluate(() => {
    if (matchMedia("(scripting: none)").matches) return false;
    return new Promise<boolean>((resolve) => {
      const deadline = performance.now() + 3000;
      let last = window.scrollY;
      let still = 0;
      const frame = () => {
        still = window.scrollY === last ? still + 1 : 0;
        last = window.scrollY;
        if (still >= 3 || performance.now() > deadline) resolve(true);
        else requestAnimationFrame(frame);
      };
      requestAnimationFrame(frame);
    });
  });
  if (framed) return;
  let last = NaN;
  let still = 0;
  const stillLooks = async () => {
    const now = await page.evaluate(() => window.scrollY);
    still = now === last ? still + 1 : 0;
    last = now;
    return still;
  };
  // Past 3 s the caller's own check says where the page is.
  await expect
    .poll(stillLooks, { timeout: 3000, interval: 60 })
    .toBeGreaterThanOrEqual(3)
    .catch(() => undefined);
}

interface Landing {
  top: number;
  headerBottom: number;
  viewportHeight: number;
  atBottom: boolean;
}

async function landing(page: Page, selector: string): Promise<Landing> {
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

function landingProblem(where: Landing): string | null {
  if (where.headerBottom <= 0) return "no fixed header found";
  if (where.top < where.headerBottom - 2) return "its top is hidden under the fixed header";
  if (where.top >= where.viewportHeight - 40) return "its top is not in view";
  if (!where.atBottom && where.top - where.headerBottom > 96) return "its top is far below the header";
  return null;
}

/**
 * Asserts that the section's top is in view just below the fixed header. Smooth scrolling takes a
 * moment: poll for the position (5 s), let the scroll settle, then check again.
 */
export async function expectLandedOn(page: Page, selector: string): Promise<void> {
  // Past the limit the check below says where the target is.
  await expect
    .poll(async () => landingProblem(await landing(page, selector)), { timeout: 5000 })
    .toBeNull()
    .catch(() => undefined);
  await waitForScrollToSettle(page);
  const where = await landing(page, selector);
  expect(landingProblem(where), `${selector}: ${JSON.stringify(where)}`).toBeNull();
}

function contactForm(page: Page): Locator {
  return page.locator("#contact form").first();
}

export function field(page: Page, name: keyof ContactValues): Locator {
  return contactForm(page).locator(`[name="${name}"]`);
}

export async function fillContact(page: Page, values: Partial<ContactValues>): Promise<void> {
  for (const [name, value] of Object.entries(values) as [keyof ContactValues, string][]) {
    const input = field(page, name);
    if (contactField(name).kind === "select") await input.selectOption(value);
    else await input.fill(value);
  }
}

export async function contactValues(page: Page): Promise<ContactValues> {
  const entries = await Promise.all(
    CONTACT_FIELDS.map(async ({ name }) => [name, await field(page, name).inputValue()] as const),
  );
  return Object.fromEntries(entries) as ContactValues;
}

export function submitButton(page: Page): Locator {
  return contactForm(page).locator('button[type="submit"], button:not([type])').first();
}

/**
 * The form is `aria-busy="false"` only once its submission and any reload that followed have ended:
 * a request count read after it is final, without waiting for time to pass.
 */
export async function waitForFormAtRest(page: Page): Promise<void> {
  await page.locator('#contact form[aria-busy="false"]').waitFor({ state: "attached", timeout: 15_000 });
}

export function countPosts(page: Page): { readonly count: number } {
  const counter = { count: 0 };
  page.on("request", (request) => {
    if (request.method() === "POST") counter.count += 1;
  });
  return counter;
}

/** Waits for React to hydrate, so that clicks reach the enhanced behaviour, not the native fallback. */
export async function waitForHydration(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const main = document.getElementById("main");
    if (!main) return false;
    // React attaches its fiber to hydrated DOM nodes under keys starting with __react.
    return Object.keys(main).some((key) => key.startsWith("__react"));
  });
  await page.waitForLoadState("networkidle");
}

/** The JS toast: any list item in a labelled region (a Radix toast root is one) passes. */
export function toast(page: Page, title: string): Locator {
  return page.getByRole("region").locator("li").filter({ hasText: title }).first();
}

/** The notice the server renders next to the form without JavaScript. */
export function serverNotice(page: Page, role: "alert" | "status", title: string): Locator {
  return page.locator("#contact").getByRole(role).filter({ hasText: title }).first();
}

/** Waits until the FAQ's accordion (loaded lazily as the FAQ nears the viewport) has taken over. */
export async function waitForFaqAccordion(page: Page, firstQuestion: string): Promise<void> {
  await page.locator("#faq").getByRole("button", { name: firstQuestion, exact: true }).waitFor();
}

/** A page step with a deadline, past which the error says what the page and its processes still do. */
export async function pageStep<T>(page: Page, what: string, step: Promise<T>, ms = 30_000): Promise<T> {
  return withDeadline(what, step, ms).catch(async (error: unknown) => {
    if (!(error instanceof DeadlineError)) throw error;
    const answer = (check: () => unknown) =>
      withDeadline("", page.evaluate(check), 2_000).then(String, () => "nothing");
    const state = await answer(() => `${document.visibilityState}, focus ${document.hasFocus()}`);
    // A frame's time, or "nothing"; then again once brought to the front (a hidden page paints none).
    const frame = () => answer(() => new Promise(requestAnimationFrame));
    const painted = await frame();
    await withDeadline("", page.bringToFront(), 2_000).catch(() => undefined);
    error.message += `; in 2 s the page answered "${state}", a frame: ${painted}, at the front: ${await frame()}; the test's processes: ${await treeActivity(process.pid)}`;
    throw error;
  });
}

/**
 * Scrolls through the page so everything that waits for the viewport runs (testimonials' skeleton,
 * the lazy accordion), waits for it, and returns to the top. No `firstFaqQuestion`: no FAQ (/privacy).
 */
export async function scrollThrough(page: Page, firstFaqQuestion?: string): Promise<void> {
  await pageStep(
    page,
    "scrolling through the page",
    page.evaluate(async () => {
      // Two frames after each step: the viewport observers have seen it, and what they set rendered.
      const twoFrames = () =>
        new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      for (let y = 0; y <= document.documentElement.scrollHeight; y += Math.round(window.innerHeight * 0.8)) {
        window.scrollTo({ top: y, behavior: "instant" });
        await twoFrames();
      }
    }),
  );
  await expect.poll(() => page.locator("#testimonials [data-skeleton]").count()).toBe(0);
  if (firstFaqQuestion !== undefined) await waitForFaqAccordion(page, firstFaqQuestion);
  await wakeTooltips(page);
  await page.evaluate(() => window.scrollTo({ top: 0, behavior: "instant" }));
}

/**
 * Icon-only controls stay plain HTML until the pointer first reaches one and the tooltip code loads:
 * point at one so that has happened before a test takes an inventory of the page.
 */
async function wakeTooltips(page: Page): Promise<void> {
  const trigger = page.locator("[data-tooltip-trigger]").filter({ visible: true }).first();
  if ((await trigger.count()) === 0) return;
  await trigger.hover();
  await page.mouse.move(1, 1);
  // Radix has taken over every control: its triggers carry data-state.
  await expect.poll(() => page.locator("[data-tooltip-trigger]:not([data-state])").count()).toBe(0);
}
