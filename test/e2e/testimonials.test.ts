import { expect, it } from "vitest";

import { describeBrowser, SIZES, useStack } from "./support/browser";
import { keepTrafficLocal, waitForHydration } from "./support/page";

/** Sums every layout shift (not caused by input) since navigation start, buffered. */
const CLS_OBSERVER = () => {
  type Shift = { at: number; value: number; sources: string[] };
  const state = { cls: 0, shifts: [] as Shift[] };
  (window as unknown as { __cls: typeof state }).__cls = state;
  const rect = (r?: DOMRectReadOnly) =>
    r ? `${Math.round(r.x)},${Math.round(r.y)} ${Math.round(r.width)}x${Math.round(r.height)}` : "";
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as unknown as {
      startTime: number;
      value: number;
      hadRecentInput: boolean;
      sources?: { node?: Node | null; previousRect?: DOMRectReadOnly; currentRect?: DOMRectReadOnly }[];
    }[]) {
      if (entry.hadRecentInput) continue;
      state.cls += entry.value;
      state.shifts.push({
        at: Math.round(entry.startTime),
        value: entry.value,
        sources: (entry.sources ?? []).map((s) => {
          const node =
            s.node instanceof Element
              ? `${s.node.tagName.toLowerCase()}.${String(s.node.className).slice(0, 80)}`
              : String(s.node);
          return `${node} ${rect(s.previousRect)} -> ${rect(s.currentRect)}`;
        }),
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

      // Timing is the behaviour here. Measure it inside the page from DOM mutations (not animation
      // frames, which a busy machine throttles): when the section intersects, when the skeletons are
      // inserted (and how many are visible then), and when they are removed.
      const timeline = await page.evaluate(
        () =>
          new Promise<{ entered: number; appeared: number; visibleAtAppear: number; gone: number }>(
            (resolve, reject) => {
              const section = document.getElementById("testimonials");
              if (!section) return reject(new Error("no #testimonials"));
              const result = { entered: -1, appeared: -1, visibleAtAppear: 0, gone: -1 };
              const countVisible = () =>
                Array.from(section.querySelectorAll("[data-skeleton]")).filter((el) => {
                  const rect = el.getBoundingClientRect();
                  return (
                    rect.width > 0 &&
                    rect.height > 0 &&
                    el.checkVisibility({ opacityProperty: true, visibilityProperty: true })
                  );
                }).length;
              const io = new IntersectionObserver((entries) => {
                if (entries.some((e) => e.isIntersecting) && result.entered < 0) {
                  result.entered = performance.now();
                  io.disconnect();
                }
              });
              io.observe(section);
              const finish = () => {
                mo.disconnect();
                io.disconnect();
                resolve(result);
              };
              const mo = new MutationObserver(() => {
                const present = section.querySelectorAll("[data-skeleton]").length;
                if (present > 0 && result.appeared < 0) {
                  result.appeared = performance.now();
                  result.visibleAtAppear = countVisible();
                } else if (present === 0 && result.appeared >= 0 && result.gone < 0) {
                  result.gone = performance.now();
                  finish();
                }
              });
              mo.observe(section, { childList: true, subtree: true });
              setTimeout(finish, 5000);
              section.scrollIntoView({ behavior: "instant", block: "start" });
            },
          ),
      );
      const summary = JSON.stringify(timeline);
      expect(timeline.entered, summary).toBeGreaterThan(0);
      expect(timeline.visibleAtAppear, `six skeletons visible: ${summary}`).toBe(6);
      expect(timeline.appeared - timeline.entered, `skeletons appear on entering: ${summary}`).toBeLessThan(
        750,
      );
      expect(timeline.gone, `skeletons replaced: ${summary}`).toBeGreaterThan(0);
      const shownFor = timeline.gone - timeline.appeared;
      expect(shownFor, `skeletons show for ~1 s: ${summary}`).toBeGreaterThanOrEqual(900);
      expect(shownFor, `skeletons show for ~1 s: ${summary}`).toBeLessThan(1800);

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
