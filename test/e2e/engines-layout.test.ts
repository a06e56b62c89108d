/**
 * What every visitor sees in the three engines (issue 25): nothing spills sideways from 320 to
 * 1440 px without JavaScript (with it: layout.test.ts), the hero's line ends at its last step, the
 * reviews line up, a picture of every section per engine, and no lone word (issues 20, 35, 39).
 * Lone words are looked for with either font set a visitor may have (decision 039); the page avoids
 * them with CSS (`text-wrap`) and no-break spaces, never by tuning for one font.
 */
import { statSync } from "node:fs";

import { expect, it } from "vitest";

import { DEJAVU, FONT_SETS, LIBERATION, missingFamilies } from "../fonts/font-sets";
import {
  designFacts,
  type DesignFacts,
  LONE_WORD_CONTROL,
  mountSweepFrame,
  SWEEP_FRAME,
  sweepFrameReady,
} from "./support/design";
import { describeEngines, type EngineContext, screenshotDir } from "./support/engines/suite";
import type { Viewport } from "./support/engines/driver";
import { DESKTOP, PHONE, SIZES } from "./support/engines/visitor";
import { findHorizontalOverflow, OVERFLOW_CONTROL_FINDINGS, plantOverflowControl } from "./support/layout";

// Widest first, as each session starts (WebKit restarts its browser to zoom: driver.ts's `zoomed`).
const WIDTHS = [1440, 1280, 1024, 768, 640, 430, 390, 375, 360, 320];
const PIPELINE_WIDTHS = [390, 375, 360, 320];
// Phone widths zoomed: text is measured as on a phone's screen (decision 056).
const zoomed = (viewport: Viewport): Viewport => ({ ...viewport, zoomed: viewport.width < 640 });
const windowAt = (width: number) => zoomed({ width, height: width < 640 ? 844 : 900 });

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

function reviewRows(): { stars: number[]; quotes: number[]; authors: number[] } {
  const cards = Array.from(document.querySelectorAll("#testimonials .swipe-track article"));
  const tops = (index: number) => cards.map((card) => card.children[index]!.getBoundingClientRect().top);
  return { stars: tops(0), quotes: tops(1), authors: tops(2) };
}

const spread = (values: number[]) => Math.max(...values) - Math.min(...values);

/** Every phone width a visitor may have, one pixel apart (issue 35): none hides a lone word. */
const PHONE_WIDTHS = Array.from({ length: 430 - 320 + 1 }, (_, index) => 320 + index);
/** Where the window itself is measured too, to hold the frame to it: both ends and a common phone. */
const WINDOW_WIDTHS = [320, 375, 430];
const HEIGHT = 844;

/**
 * No lone word, with the session's fonts: desktop and every phone width, JavaScript off. With
 * `layout`, the same load is swept through WIDTHS for horizontal overflow and the hero's pipeline.
 */
function loneWordTests({ visitor }: Pick<EngineContext, "visitor">, layout = false): void {
  const layoutTitle =
    `${WIDTHS.join(", ")} px: no element overflows its box or the viewport horizontally; ` +
    `at ${PIPELINE_WIDTHS.join(", ")} px the hero's pipeline line ends at its last step's icon; `;
  it(`${layout ? layoutTitle : ""}no lone word at desktop and every phone width from 320 to 430 px, JavaScript off`, async () => {
    // Without JavaScript every block is rendered at once (content-visibility is for scripted pages):
    // measured in the window at desktop and a few phone widths, then in a frame at every phone width
    // (mountSweepFrame), held line for line to the window where both were measured.
    const page = await visitor(false);
    const inWindow = new Map<number, number[]>();
    const sizes = layout
      ? WIDTHS.map((width) => (width === DESKTOP.width ? DESKTOP : windowAt(width)))
      : [DESKTOP, ...WINDOW_WIDTHS.map((width) => windowAt(width))];
    await page.throughSizes("/", sizes, async ({ width }) => {
      if (layout) {
        const problems = await page.evaluate(findHorizontalOverflow);
        expect(problems, `${width} px:\n${problems.join("\n")}`).toEqual([]);
      }
      if (layout && PIPELINE_WIDTHS.includes(width)) {
        const line = await page.evaluate(pipelineOverhang);
        expect(line.lines, `${width} px: a line is drawn`).toBeGreaterThan(0);
        expect(line.overhang, `${width} px: ${JSON.stringify(line)}`).toBeLessThanOrEqual(0.5);
      }
      if (width !== DESKTOP.width && !WINDOW_WIDTHS.includes(width)) return;
      const facts = await page.evaluate(designFacts, true);
      if (width === DESKTOP.width)
        expect(facts.loneWords, JSON.stringify(facts.loneWords, null, 1)).toEqual([]);
      else inWindow.set(width, facts.blockLines);
    });
    await page.evaluate(mountSweepFrame, { id: SWEEP_FRAME, height: HEIGHT });
    await page.waitFor(
      sweepFrameReady,
      { id: SWEEP_FRAME, control: LONE_WORD_CONTROL },
      "the page's copy in the sweep frame",
    );
    // A quarter of the widths a call: the whole sweep can pass WebKit's 30 s command deadline.
    const sweep: DesignFacts["sweep"] = [];
    for (let from = 0; from < PHONE_WIDTHS.length; from += 28) {
      const widths = PHONE_WIDTHS.slice(from, from + 28);
      sweep.push(...(await page.evaluate(designFacts, { sweep: { frame: SWEEP_FRAME, widths } })).sweep);
    }
    expect(sweep.map(({ width }) => width)).toEqual(PHONE_WIDTHS);
    for (const [width, lines] of inWindow) {
      expect(lines.length, `text blocks in the window at ${width} px`).toBeGreaterThan(50);
      // The copy's last block is the planted control paragraph, which the window has not.
      expect(
        sweep.find((at) => at.width === width)!.blockLines.slice(0, -1),
        `each block's lines at ${width} px, frame against window`,
      ).toEqual(lines);
    }
    const found = sweep.flatMap(({ width, loneWords }) =>
      loneWords.map((orphan) => ({ width, text: orphan.text, lastWord: orphan.lastWord })),
    );
    const planted = found.filter(({ text }) => text.startsWith(LONE_WORD_CONTROL));
    expect(planted.length, "widths where the planted paragraph's lone word was found").toBeGreaterThan(0);
    const onThePage = found.filter(({ text }) => !text.startsWith(LONE_WORD_CONTROL));
    expect(onThePage, JSON.stringify(onThePage, null, 1)).toEqual([]);
    if (!layout) return;
    // The positive control: the same sweep on the same page finds the spills planted in it.
    await page.evaluate(plantOverflowControl);
    const spills = await page.evaluate(findHorizontalOverflow);
    for (const finding of OVERFLOW_CONTROL_FINDINGS)
      expect(
        spills.some((problem) => finding.test(problem)),
        `${finding} in:\n${spills.join("\n")}`,
      ).toBe(true);
  }, 300_000);
}

describeEngines(
  `the page in every engine: layout, fonts: ${LIBERATION.name}`,
  ({ engine, visitor }) => {
    for (const { name, viewport } of SIZES) {
      it(`${name}: the reviews' stars, quotes and authors line up across the cards (within 1 px), and every section is there${screenshotDir ? ", pictured under test-results/screenshots/" : ""} (${engine})`, async () => {
        const page = await visitor(true);
        // As a visitor reads them: cards not yet seen are covered, then uncovered once in view. WebKit's
        // layout of the row broke only then, never on the first layout.
        await page.open("/", zoomed(viewport));
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
        if (!screenshotDir) return;
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

    loneWordTests({ visitor }, true);

    // With JavaScript, the same text and styles: one font set tells whether a script made a lone word.
    it(`no lone word, desktop and phone, JavaScript on`, async () => {
      const page = await visitor(true);
      await page.throughSizes("/", [DESKTOP, zoomed(PHONE)], async ({ width }) => {
        const orphans = (await page.evaluate(designFacts, true)).loneWords;
        expect(orphans, `${width} px: ${JSON.stringify(orphans, null, 1)}`).toEqual([]);
      });
    });
  },
  // The run's default (vitest.config.ts), named: the lone words are looked for with it.
  { fonts: LIBERATION },
);

for (const fonts of FONT_SETS)
  it(`the font set "${fonts.name}" is installed (${fonts.packages.join(", ")})`, () => {
    // Without it the browsers would fall back to other fonts and the lone-word tests prove nothing.
    expect(missingFamilies(fonts), `apt-get install ${fonts.packages.join(" ")}`).toEqual([]);
  });

// DejaVu is a bare Linux's font, where visitors run Chromium or Firefox (decision 057).
describeEngines(`no lone word, fonts: ${DEJAVU.name}`, (context) => loneWordTests(context), {
  fonts: DEJAVU,
  engines: ["chromium", "firefox"],
});
