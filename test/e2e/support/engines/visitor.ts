/**
 * A visitor at a browser of any engine, what the cross-engine tests are written against (decision
 * 035): every step finds and measures in the page, then clicks or presses keys as a person would.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

import { uniqueContact } from "../spec-texts";
import type { EngineName, EngineSession, Key, PageFunction, Viewport } from "./driver";

export const PHONE: Viewport = { width: 390, height: 844 };
export const DESKTOP: Viewport = { width: 1280, height: 800 };
/**
 * Desktop first, as every session starts: WebKit may restart its browser to go between desktop and
 * phone widths (webkit.ts), so a file's tests take each session there once.
 */
export const SIZES = [
  { name: "desktop", viewport: DESKTOP },
  { name: "phone", viewport: PHONE },
] as const;

const failureDir = fileURLToPath(new URL("../../../../test-results/failures", import.meta.url));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Where a target is on screen, for a click. Runs in the page. */
function revealTarget({ selector, text, nth }: { selector: string; text: string | null; nth: number }) {
  const matches = Array.from(document.querySelectorAll(selector)).filter((el) => {
    const box = el.getBoundingClientRect();
    const shown = box.width > 0 && box.height > 0 && getComputedStyle(el).visibility !== "hidden";
    return shown && (text === null || (el.textContent ?? "").replace(/\s+/g, " ").includes(text));
  });
  const target = matches[nth];
  if (!target) return { found: matches.length, x: 0, y: 0, covered: null, over: null };
  // Instantly, as a visitor's own scrolling would have brought it there, and clear of the header.
  const box = target.getBoundingClientRect();
  if (box.top < 100 || box.bottom > window.innerHeight - 20)
    target.scrollIntoView({ block: "center", behavior: "instant" });
  const rect = target.getBoundingClientRect();
  const x = rect.left + rect.width / 2;
  const y = rect.top + rect.height / 2;
  // What a pointer there would press: the target, or something over it (a toast, a bar).
  const top = document.elementFromPoint(x, y);
  const covered = top && !target.contains(top) ? top.outerHTML.slice(0, 160) : null;
  // What the engine's own hit test put the pointer over (null: the target), as the next press finds it.
  const hovered = [...document.querySelectorAll(":hover")].pop();
  const over = target.matches(":hover") ? null : (hovered?.outerHTML.slice(0, 160) ?? "nothing");
  return { found: matches.length, x, y, covered, over };
}

/** The text shown (rendered, not hidden) somewhere in `scope`. Runs in the page. */
export function shownText({ scope, text }: { scope: string; text: string }): boolean {
  return Array.from(document.querySelectorAll(`${scope} *`)).some(
    (el) =>
      el.children.length === 0 &&
      (el.textContent ?? "").includes(text) &&
      el.checkVisibility({ visibilityProperty: true, opacityProperty: true }) &&
      el.getBoundingClientRect().height > 0,
  );
}

/** Whether the FAQ answers at `open` are shown and those at `closed` are not. Runs in the page. */
export function faqAnswersAre({
  answers,
  open,
  closed,
}: {
  answers: string[];
  open: number[];
  closed: number[];
}) {
  const shown = (index: number) =>
    Array.from(document.querySelectorAll("#faq *")).some(
      (el) =>
        el.children.length === 0 &&
        (el.textContent ?? "").includes(answers[index]!.slice(0, 40)) &&
        el.checkVisibility({ visibilityProperty: true }) &&
        el.getBoundingClientRect().height > 0,
    );
  return open.every(shown) && !closed.some(shown);
}

/** React has hydrated the page (its fiber keys on `#main`). Runs in the page. */
export function hydrated(): boolean {
  return Object.keys(document.getElementById("main") ?? {}).some((key) => key.startsWith("__react"));
}

function sameDocument(from: string, to: string): boolean {
  const withoutFragment = (href: string) => href.split("#", 1)[0];
  return withoutFragment(from) === withoutFragment(to);
}

export class Visitor {
  constructor(
    readonly session: EngineSession,
    readonly baseUrl: string,
  ) {}

  get engine(): EngineName {
    return this.session.engine;
  }

  get javaScript(): boolean {
    return this.session.javaScript;
  }

  async open(path: string, viewport: Viewport): Promise<void> {
    await this.session.setViewport(viewport);
    const target = new URL(path, this.baseUrl);
    // The session is reused, and going to `/#contact` from the same document only scrolls (no load),
    // perhaps after the navigation returns: every test opens a new document.
    if (target.hash !== "") {
      const current = await this.session.evaluate(() => location.href, undefined).catch(() => null);
      if (current !== null && sameDocument(current, target.href)) await this.session.goto("about:blank");
    }
    await this.session.goto(target.href);
  }

  /** Resizes the open page; false if it is gone (WebKit may restart between phone and desktop widths). */
  async resize(viewport: Viewport): Promise<boolean> {
    await this.session.evaluate(() => {
      (window as unknown as { beforeResize?: boolean }).beforeResize = true;
    }, undefined);
    await this.session.setViewport(viewport);
    return this.session
      .evaluate(() => (window as unknown as { beforeResize?: boolean }).beforeResize === true, undefined)
      .catch(() => false);
  }

  /** One page for all viewports, resized rather than reloaded (a sweep over widths costs one load). */
  async throughSizes(
    path: string,
    viewports: readonly Viewport[],
    visit: (viewport: Viewport) => Promise<void>,
  ): Promise<void> {
    for (const [index, viewport] of viewports.entries()) {
      if (index === 0 || !(await this.resize(viewport))) await this.open(path, viewport);
      await visit(viewport);
    }
  }

  evaluate<R>(fn: PageFunction<undefined, R>): Promise<R>;
  evaluate<A, R>(fn: PageFunction<A, R>, arg: A): Promise<R>;
  evaluate<A, R>(fn: PageFunction<A | undefined, R>, arg?: A): Promise<R> {
    return this.session.evaluate(fn, arg);
  }

  /** Polls `fn(arg)` until truthy. Between two documents there is nothing to evaluate in: "not yet". */
  async waitFor<A, R>(fn: PageFunction<A, R>, arg: A, what: string, timeoutMs = 15_000): Promise<R> {
    const deadline = Date.now() + timeoutMs;
    let [last, firstError]: unknown[] = [];
    while (Date.now() < deadline) {
      try {
        const value = await this.session.evaluate(fn, arg);
        if (value) return value;
        last = value;
      } catch (error) {
        [last, firstError] = [error, firstError ?? error];
      }
      await sleep(100);
    }
    // What the visitor saw then, for the person reading the failure.
    const picture = join(failureDir, `${this.engine}-${Date.now()}.png`);
    mkdirSync(failureDir, { recursive: true });
    const seen = await this.session.screenshot(picture).then(
      () => `screen: ${picture}`,
      (error: unknown) => `no screenshot: ${String(error)}`,
    );
    throw new Error(
      `${this.engine}: timed out after ${timeoutMs} ms waiting for ${what} (last: ${String(last)}; ` +
        `${firstError && firstError !== last ? `first error: ${String(firstError)}; ` : ""}${seen})`,
    );
  }

  /** Clicks the `nth` shown element matching `selector` (and containing `text`), with the pointer. */
  async click(selector: string, text: string | null = null, nth = 0): Promise<void> {
    const target = await this.aim(selector, text, nth);
    await this.session.clickAt(target.x, target.y);
  }

  /** Like `click`, but pressed until `pointerUp`: a tap that lasts while the page changes under it. */
  async pointerDown(selector: string, text: string | null = null, nth = 0): Promise<void> {
    const target = await this.aim(selector, text, nth);
    await this.session.pointerDown(target.x, target.y);
  }

  pointerUp(): Promise<void> {
    return this.session.pointerUp();
  }

  /**
   * Until the target stays put (a glide may still move it), is uncovered, and has the pointer over it
   * by the engine's own hit test, as a person waits. The last is Firefox's: its compositor may put
   * back the scroll position from before the reveal's scroll and glide on from there, so a press
   * aimed by the page's layout alone lands on what was there before.
   */
  private async aim(selector: string, text: string | null, nth: number) {
    const look = () => this.session.evaluate(revealTarget, { selector, text, nth });
    let target = await look();
    for (let tries = 0; tries < 30; tries += 1) {
      await sleep(60);
      const again = await look();
      const still = Math.abs(again.x - target.x) < 1 && Math.abs(again.y - target.y) < 1;
      target = again;
      if (!still || target.covered) continue;
      if (target.found <= nth || target.over === null) break;
      await this.session.pointerMove(Math.round(target.x), Math.round(target.y));
      if ((target = await look()).over === null) break;
    }
    const what = `${selector}${text ? ` containing "${text}"` : ""} (#${nth})`;
    if (target.found <= nth) throw new Error(`${this.engine}: no shown ${what}`);
    if (target.covered) throw new Error(`${this.engine}: ${what} is under ${target.covered}`);
    if (target.over) throw new Error(`${this.engine}: the pointer over ${what} is over ${target.over}`);
    return { x: Math.round(target.x), y: Math.round(target.y) };
  }

  async fill(selector: string, text: string): Promise<void> {
    await this.click(selector);
    await this.session.type(text);
    const missed = await this.session.evaluate(
      ({ field, text }) => {
        const value = document.querySelector<HTMLInputElement>(field)?.value;
        const focus = document.activeElement?.outerHTML.slice(0, 160);
        return value?.endsWith(text) ? null : `holds ${JSON.stringify(value)}; the keys went to ${focus}`;
      },
      { field: selector, text },
    );
    if (missed) throw new Error(`${this.engine}: ${selector} after typing ${missed}`);
  }

  /** Types a request no other test sends into the contact form's required fields, key by key. */
  async fillValidRequest(): Promise<void> {
    const contact = uniqueContact();
    for (const field of ["name", "email", "message"] as const)
      await this.fill(`#contact [name="${field}"]`, contact[field]);
  }

  press(key: Key): Promise<void> {
    return this.session.press(key);
  }

  keyDown(key: Exclude<Key, "Shift+Tab">): Promise<void> {
    return this.session.keyDown(key);
  }

  keyUp(key: Exclude<Key, "Shift+Tab">): Promise<void> {
    return this.session.keyUp(key);
  }

  /** Runs a submit and waits for a new, parsed document at `url` (the marker dies with the old one). */
  async submitAndSettle(action: () => Promise<void>, url: RegExp): Promise<void> {
    await this.session.evaluate(() => {
      (window as unknown as { beforeSubmit?: boolean }).beforeSubmit = true;
    }, undefined);
    await action();
    await this.waitFor(
      (source) =>
        !(window as unknown as { beforeSubmit?: boolean }).beforeSubmit &&
        document.readyState !== "loading" &&
        new RegExp(source).test(location.href),
      url.source,
      `a new document at ${url}`,
    );
  }

  /**
   * So the test acts on the enhanced page, not the links before it: React hydrated `#main` (every
   * page script has run by then, decision 036) and the menu toggles got `role="button"` (set by the
   * effect after hydration, MobileMenu.tsx). Hydration keeps the toggles' elements (issue 35).
   */
  async waitForEnhancement(): Promise<void> {
    await this.waitFor(
      () =>
        Object.keys(document.getElementById("main") ?? {}).some((key) => key.startsWith("__react")) &&
        document.querySelector('header [aria-controls="mobile-menu"][role="button"]') !== null,
      undefined,
      "the page's JavaScript to take over",
    );
  }

  /**
   * Waits for the place, not for scrolling to stop: WebKit starts its smooth scroll later than the
   * others, and a click aimed while the page still glides lands on whatever glides under it.
   */
  async waitForLanding(id: string): Promise<void> {
    await this.waitFor(
      (sectionId) => {
        const top = document.getElementById(sectionId)!.getBoundingClientRect().top;
        const header = document.querySelector("header")!.getBoundingClientRect().bottom;
        return top >= header - 1 && top - header <= 96;
      },
      id,
      `#${id} to land just below the header`,
    );
  }

  /** Waits until the page stops scrolling (smooth scrolling settles), or 3 s pass. */
  async settleScroll(): Promise<void> {
    const deadline = Date.now() + 3000;
    let last = await this.evaluate(() => window.scrollY);
    let stable = 0;
    while (stable < 3 && Date.now() < deadline) {
      await sleep(80);
      const now = await this.evaluate(() => window.scrollY);
      stable = now === last ? stable + 1 : 0;
      last = now;
    }
  }

  /** A PNG of one element (the whole element where the engine can, else what fits the viewport). */
  async screenshotOf(selector: string, dir: string, file: string): Promise<string> {
    mkdirSync(dir, { recursive: true });
    const path = join(dir, file);
    await this.session.screenshot(path, selector);
    return path;
  }
}
