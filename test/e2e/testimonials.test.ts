import { expect, it } from "vitest";

import { describeBrowser, SIZES, useStack } from "./support/browser";
import { keepTrafficLocal, waitForHydration } from "./support/page";

/** Sums every layout shift (not caused by input) since navigation start, buffered. */
const CLS_OBSERVER = () => {
  const state = { cls: 0, shifts: [] as { value: number; sources: string[] }[] };
  (window as unknown as { __cls: typeof state }).__cls = state;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as unknown as {
      value: number;
      hadRecentInput: boolean;
      sources?: { node?: Node | null }[];
    }[]) {
      if (entry.hadRecentInput) continue;
      state.cls += entry.value;
      state.shifts.push({
        value: entry.value,
        sources: (entry.sources ?? []).map((s) =>
          s.node instanceof Element ? `${s.node.tagName.toLowerCase()}.${s.node.className}` : String(s.node),
        ),
      });
    }
  }).observe({ type: "layout-shift", buffered: true });
};

describeBrowser("testimonials and layout stability", () => {
  const stack = useStack();

  for (const { name, options } of SIZES) {
    it(`${name}: six skeletons appear as the section enters the view, then six testimonials ~1 s later`, async () => {
      const context = await stack.context(options);
      await keepTrafficLocal(context);
      const page = await context.newPage();
      await page.goto("/");
      await waitForHydration(page);

      // Timing is the behaviour here: measure it inside the page, frame by frame.
      const timeline = await page.evaluate(
        () =>
          new Promise<{ firstSkeletons: number; skeletonsGone: number; maxSkeletons: number }>(
            (resolve, reject) => {
              const visible = (el: Element) => {
                const rect = el.getBoundingClientRect();
                return (
                  rect.width > 0 &&
                  rect.height > 0 &&
                  el.checkVisibility({ opacityProperty: true, visibilityProperty: true })
                );
              };
              const section = document.getElementById("testimonials");
              if (!section) return reject(new Error("no #testimonials"));
              section.scrollIntoView({ behavior: "instant", block: "start" });
              const start = performance.now();
              let firstSkeletons = -1;
              let maxSkeletons = 0;
              const tick = () => {
                const now = performance.now() - start;
                const skeletons = Array.from(section.querySelectorAll("[data-skeleton]")).filter(visible);
                maxSkeletons = Math.max(maxSkeletons, skeletons.length);
                if (skeletons.length > 0 && firstSkeletons < 0) firstSkeletons = now;
                if (firstSkeletons >= 0 && skeletons.length === 0) {
                  return resolve({ firstSkeletons, skeletonsGone: now, maxSkeletons });
                }
                if (now > 4000) return resolve({ firstSkeletons, skeletonsGone: -1, maxSkeletons });
                requestAnimationFrame(tick);
              };
              requestAnimationFrame(tick);
            },
          ),
      );

      expect(timeline.maxSkeletons, JSON.stringify(timeline)).toBe(6);
      expect(timeline.firstSkeletons, JSON.stringify(timeline)).toBeGreaterThanOrEqual(0);
      expect(timeline.firstSkeletons, JSON.stringify(timeline)).toBeLessThan(400);
      expect(timeline.skeletonsGone, JSON.stringify(timeline)).toBeGreaterThanOrEqual(800);
      expect(timeline.skeletonsGone, JSON.stringify(timeline)).toBeLessThan(2500);

      const cards = page.locator("#testimonials article[data-testimonial]");
      expect(await cards.count()).toBe(6);
      for (let i = 0; i < 6; i += 1) {
        const card = cards.nth(i);
        expect(await card.isVisible()).toBe(true);
        // innerText leaves out text hidden with visibility:hidden, so this proves the words show.
        expect((await card.innerText()).length).toBeGreaterThan(40);
        expect(await card.innerText()).toMatch(/\S+/);
      }
      expect(await page.locator("#testimonials").getByText("Rated 5 out of 5").count()).toBe(6);
    });

    it(`${name}: nothing shifts: CLS is 0 over the whole page after scrolling through it`, async () => {
      const context = await stack.context(options);
      await keepTrafficLocal(context);
      await context.addInitScript(CLS_OBSERVER);
      const page = await context.newPage();
      await page.goto("/");
      await waitForHydration(page);
      await page.evaluate(async () => {
        const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
        const step = Math.round(window.innerHeight * 0.7);
        for (let y = 0; y <= document.documentElement.scrollHeight; y += step) {
          window.scrollTo({ top: y, behavior: "instant" });
          await pause(120);
        }
        // Let the testimonials' skeleton run its full second and lazy modules settle.
        await pause(1500);
        window.scrollTo({ top: 0, behavior: "instant" });
        await pause(300);
      });
      const result = await page.evaluate(
        () => (window as unknown as { __cls: { cls: number; shifts: unknown[] } }).__cls,
      );
      expect(result.cls, JSON.stringify(result.shifts)).toBe(0);
    });
  }
});
