import type { Page } from "playwright-core";
import { expect, it } from "vitest";

import { describeBrowser, DESKTOP, PHONE, useStack } from "./support/browser";
import { faqs } from "~/content/faq";

import { scrollThrough } from "./support/page";

interface Candidate {
  id: string;
  label: string;
}

/**
 * Marks every element a keyboard user must be able to reach (visible, enabled, not taken out of the
 * tab order) and records how it looks while NOT focused, to compare with its focused look.
 */
async function markCandidates(page: Page): Promise<Candidate[]> {
  return page.evaluate(() => {
    // Transitions would make the focused style lag behind focus; the ring itself is unchanged.
    const sheet = new CSSStyleSheet();
    sheet.replaceSync("*, *::before, *::after { transition: none !important; animation: none !important; }");
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];

    const selector = "a[href], button, input, select, textarea, summary, [tabindex], [contenteditable=true]";
    // The outline, and the box-shadow (Tailwind's ring utilities).
    const style = (el: Element | null | undefined) => {
      if (!el) return "";
      const s = getComputedStyle(el);
      const outline =
        s.outlineStyle !== "none" && parseFloat(s.outlineWidth) > 0
          ? `${s.outlineStyle} ${s.outlineWidth} ${s.outlineColor} ${s.outlineOffset}`
          : "none";
      return `${outline}|${s.boxShadow}`;
    };
    const store = new Map<string, string>();
    // Kept for focusedState: the same reading of a ring before and after focus.
    Object.assign(window, { __e2eBaseline: store, __e2eRingStyle: style });
    const result: { id: string; label: string }[] = [];
    let n = 0;
    for (const el of Array.from(document.querySelectorAll<HTMLElement>(selector))) {
      if (el.tabIndex < 0 || (el as HTMLButtonElement).disabled || el.closest("[inert]")) continue;
      if (el.closest("[aria-hidden=true]") && el.tabIndex < 0) continue;
      const rect = el.getBoundingClientRect();
      if (rect.width === 0 || rect.height === 0 || !el.checkVisibility({ visibilityProperty: true }))
        continue;
      const id = `k${n++}`;
      el.dataset.e2eFocus = id;
      const label = (el.getAttribute("aria-label") ?? el.innerText ?? el.getAttribute("name") ?? el.tagName)
        .trim()
        .slice(0, 40);
      result.push({ id, label: `${el.tagName.toLowerCase()} "${label}"` });
      // The element and its two nearest ancestors (a ring may be drawn on a wrapper with :focus-within).
      store.set(id, JSON.stringify([el, el.parentElement, el.parentElement?.parentElement].map(style)));
    }
    return result;
  });
}

async function focusedState(page: Page): Promise<{ id: string | null; tag: string; ring: boolean }> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return { id: null, tag: "body", ring: false };
    const id = el.dataset.e2eFocus ?? null;
    const { __e2eBaseline: baseline, __e2eRingStyle: style } = window as unknown as {
      __e2eBaseline: Map<string, string>;
      __e2eRingStyle: (element: Element | null | undefined) => string;
    };
    const stored = baseline.get(id ?? "");
    const before: string[] = stored ? JSON.parse(stored) : ["none|none", "none|none", "none|none"];
    const now = [el, el.parentElement, el.parentElement?.parentElement].map(style);
    // A ring shows when, at some level, an outline or a box-shadow is drawn now that was not before.
    const ring = now.some((current, level) => {
      const [outlineNow = "none", shadowNow = "none"] = current.split("|");
      const [outlineBefore = "none", shadowBefore = "none"] = (before[level] ?? "").split("|");
      return (
        (outlineNow !== "none" && outlineNow !== outlineBefore) ||
        (shadowNow !== "none" && shadowNow !== shadowBefore)
      );
    });
    return { id, tag: `${el.tagName.toLowerCase()}#${el.id}.${String(el.className).slice(0, 40)}`, ring };
  });
}

describeBrowser("keyboard", () => {
  const stack = useStack();

  for (const options of [DESKTOP, PHONE]) {
    const name = options === DESKTOP ? "desktop" : "phone";
    it(`${name}: the first Tab reaches a visible "Skip to main content" link that moves focus to #main`, async () => {
      const page = await stack.page(options);
      await page.keyboard.press("Tab");
      const skip = await page.evaluate(() => {
        const el = document.activeElement as HTMLAnchorElement | null;
        const rect = el?.getBoundingClientRect();
        return {
          text: el?.textContent?.trim(),
          href: el?.getAttribute("href"),
          width: rect?.width ?? 0,
          height: rect?.height ?? 0,
          top: rect?.top ?? -1,
        };
      });
      expect(skip.text).toBe("Skip to main content");
      expect(skip.href).toBe("#main");
      expect(skip.width, "visible when focused").toBeGreaterThan(20);
      expect(skip.height, "visible when focused").toBeGreaterThan(10);
      expect(skip.top).toBeGreaterThanOrEqual(0);
      await page.keyboard.press("Enter");
      await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe("main");
      await page.keyboard.press("Tab");
      expect(await page.evaluate(() => !!document.activeElement?.closest("#main"))).toBe(true);
    });
  }

  it("desktop: Tab reaches every interactive element on / and each shows a visible focus ring", async () => {
    const page = await stack.page(DESKTOP);
    // Let lazy parts settle before taking the inventory.
    await scrollThrough(page, faqs[0]!.question);
    const candidates = await markCandidates(page);
    expect(candidates.length, "the page has interactive elements").toBeGreaterThan(30);

    const reached = new Set<string>();
    const withoutRing: string[] = [];
    const unmarked: string[] = [];
    let firstId: string | null = null;
    for (let i = 0; i < candidates.length + 25; i += 1) {
      await page.keyboard.press("Tab");
      // scrollThrough has let every lazily enhanced control take over: none is re-rendered under focus.
      const state = await focusedState(page);
      if (state.id === null) {
        if (state.tag !== "body") unmarked.push(state.tag);
        if (reached.size > 0 && state.tag === "body") break;
        continue;
      }
      if (state.id === firstId) break; // wrapped around
      firstId ??= state.id;
      reached.add(state.id);
      if (!state.ring) withoutRing.push(candidates.find((c) => c.id === state.id)?.label ?? state.tag);
    }
    const unreached = candidates.filter((c) => !reached.has(c.id)).map((c) => c.label);
    expect(unreached, "every interactive element is reachable with Tab").toEqual([]);
    expect(withoutRing, "every focused element shows a focus ring").toEqual([]);
  });

  // Shift+Tab onto a control under the fixed header brings it into view below it (the root's scroll
  // padding), in every engine, JavaScript on and off: engines-visitor.test.ts.
});
