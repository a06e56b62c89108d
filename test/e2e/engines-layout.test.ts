/**
 * What every visitor sees, in the three engines they use (issue 25): nothing spills sideways from
 * 320 to 1440 px without JavaScript (with it: layout.test.ts), the hero's line ends at its last step, the reviews line up, and a picture of every
 * section per engine for people to compare. No lone words: engines-lone-words.test.ts.
 */
import { statSync } from "node:fs";

import { expect, it } from "vitest";

import { describeEngines, screenshotDir } from "./support/engines/suite";
import { SIZES } from "./support/engines/visitor";
import { findHorizontalOverflow, OVERFLOW_CONTROL_FINDINGS, plantOverflowControl } from "./support/layout";

const WIDTHS = [320, 360, 375, 390, 430, 640, 768, 1024, 1280, 1440];

/**
 * How far the hero pipeline's line reaches below the middle of its last icon (≤ 0: it ends there).
 * Looks at every line the list or its steps draw (`::before`), however the design draws it.
 */
function pipelineOverhang(): { overhang: number; lastIconMiddle: number; lines: number } {
  const list = document.querySelector(".pipeline")!;
  const steps = Array.from(list.children);
  const lastIcon = steps.at(-1)!.querySelector(".disc")!.getBoundingClientRect();
  const lastIconMiddle = lastIcon.top + lastIcon.height / 2;
  let lowest = -Infinity;
  let lines = 0;
  for (const element of [list, ...steps]) {
    const line = getComputedStyle(element, "::before");
    if (line.content === "none" || line.content === "normal" || line.position !== "absolute") continue;
    const box = element.getBoundingClientRect();
    const bottom =
      line.bottom !== "auto"
        ? box.bottom - parseFloat(line.bottom)
        : box.top + parseFloat(line.top) + parseFloat(line.height);
    lines += 1;
    lowest = Math.max(lowest, bottom);
  }
  return { overhang: lowest - lastIconMiddle, lastIconMiddle, lines };
}

/** The tops of each review card's stars, quote and author: one list per part. */
function reviewRows(): { stars: number[]; quotes: number[]; authors: number[] } {
  const cards = Array.from(document.querySelectorAll("#testimonials .swipe-track article"));
  const tops = (index: number) => cards.map((card) => card.children[index]!.getBoundingClientRect().top);
  return { stars: tops(0), quotes: tops(1), authors: tops(2) };
}

const spread = (values: number[]) => Math.max(...values) - Math.min(...values);

describeEngines("the page in every engine: layout", ({ engine, visitor }) => {
  for (const width of WIDTHS) {
    it(`${width} px, JavaScript off: no element overflows its box or the viewport horizontally`, async () => {
      const page = await visitor(false);
      await page.open("/", { width, height: width < 640 ? 844 : 900 });
      const problems = await page.evaluate(findHorizontalOverflow);
      expect(problems, problems.join("\n")).toEqual([]);
      // The positive control: the same sweep on the same page finds the spills planted in it.
      await page.evaluate(plantOverflowControl);
      const planted = await page.evaluate(findHorizontalOverflow);
      for (const finding of OVERFLOW_CONTROL_FINDINGS)
        expect(
          planted.some((problem) => finding.test(problem)),
          `${finding} in:\n${planted.join("\n")}`,
        ).toBe(true);
    });
  }

  for (const width of [320, 360, 375, 390]) {
    it(`${width} px: the hero's pipeline line ends at its last step's icon`, async () => {
      const page = await visitor(false);
      await page.open("/", { width, height: 844 });
      const line = await page.evaluate(pipelineOverhang);
      expect(line.lines, "a line is drawn").toBeGreaterThan(0);
      expect(line.overhang, JSON.stringify(line)).toBeLessThanOrEqual(0.5);
    });
  }

  for (const { name, viewport } of SIZES) {
    it(`${name}: the reviews' stars, quotes and authors line up across the cards (within 1 px)`, async () => {
      const page = await visitor(true);
      // As a visitor reads them: the page's JavaScript covered the cards not seen yet when it took
      // over, and uncovered them a second after they came into view. WebKit's layout of the row
      // broke only then, never on the first layout.
      await page.open("/", viewport);
      await page.waitFor(
        () => document.querySelectorAll("#testimonials [data-skeleton]").length > 0,
        undefined,
        "the page's JavaScript to cover the reviews not seen yet",
      );
      await page.evaluate(() =>
        document.getElementById("testimonials")!.scrollIntoView({ block: "start", behavior: "instant" }),
      );
      await page.waitFor(
        () => document.querySelectorAll("#testimonials [data-skeleton]").length === 0,
        undefined,
        "the review skeletons to go",
      );
      const rows = await page.evaluate(reviewRows);
      expect(rows.stars.length).toBeGreaterThanOrEqual(4);
      expect(spread(rows.stars), `stars ${rows.stars}`).toBeLessThanOrEqual(1);
      expect(spread(rows.quotes), `quotes ${rows.quotes}`).toBeLessThanOrEqual(1);
      expect(spread(rows.authors), `authors ${rows.authors}`).toBeLessThanOrEqual(1);
    });

    it(`${name}: a picture of every section under test-results/screenshots/ (${engine})`, async () => {
      const page = await visitor(true);
      await page.open("/", viewport);
      // Each section by its id (the hero by its island name), then the page's footer.
      const parts = await page.evaluate(() => [
        ...Array.from(document.querySelectorAll<HTMLElement>("main > section")).map((section) =>
          section.id
            ? { id: section.id, selector: `#${section.id}` }
            : { id: section.dataset.island!, selector: `[data-island="${section.dataset.island}"]` },
        ),
        { id: "footer", selector: "body > footer" },
      ]);
      expect(parts.map((part) => part.id)).toEqual(
        expect.arrayContaining(["hero", "services", "testimonials", "contact", "faq", "footer"]),
      );
      for (const [index, { id, selector }] of parts.entries()) {
        const file = await page.screenshotOf(
          selector,
          screenshotDir,
          `${engine}-${name}-${String(index + 1).padStart(2, "0")}-${id}.png`,
        );
        expect(statSync(file).size, file).toBeGreaterThan(2_000);
      }
    });
  }
});
