/**
 * No paragraph, heading or label ends on a lone word (issues 20, 35, 39), in the three engines and
 * with either font set a visitor may have (decision 039): a bare Debian's DejaVu only, and
 * Liberation Sans, which measures like Arial and Helvetica. The page keeps this promise with CSS
 * (`text-wrap`) and no-break spaces, never by tuning for one font.
 */
import { expect, it } from "vitest";

import { FONT_SETS, missingFamilies } from "../fonts/font-sets";
import {
  designFacts,
  LONE_WORD_CONTROL,
  mountSweepFrame,
  SWEEP_FRAME,
  sweepFrameReady,
} from "./support/design";
import { describeEngines } from "./support/engines/suite";
import { SIZES } from "./support/engines/visitor";

/** Every phone width a visitor may have, one pixel apart (issue 35): none hides a lone word. */
const PHONE_WIDTHS = Array.from({ length: 430 - 320 + 1 }, (_, index) => 320 + index);
/** Where the window itself is measured too, to hold the frame to it: both ends and a common phone. */
const WINDOW_WIDTHS = [320, 375, 430];
const HEIGHT = 844;

for (const fonts of FONT_SETS) {
  it(`the font set "${fonts.name}" is installed (${fonts.packages.join(", ")})`, () => {
    // Without it the browsers would fall back to other fonts and the tests below prove nothing.
    expect(missingFamilies(fonts), `apt-get install ${fonts.packages.join(" ")}`).toEqual([]);
  });

  describeEngines(
    `no lone word, fonts: ${fonts.name}`,
    ({ visitor }) => {
      it(`every phone width from 320 to 430 px, JavaScript off`, async () => {
        // Without JavaScript every part is rendered at once (content-visibility is for scripted
        // pages), so every block is measured. The page's copy in a frame is laid out at each width
        // (mountSweepFrame), after the window itself at a few of them, line for line the same.
        const page = await visitor(false);
        await page.open("/", { width: PHONE_WIDTHS[0]!, height: HEIGHT });
        const inWindow = new Map<number, number[]>();
        for (const width of WINDOW_WIDTHS) {
          await page.resize({ width, height: HEIGHT });
          inWindow.set(width, (await page.evaluate(designFacts, true)).blockLines);
        }
        await page.evaluate(mountSweepFrame, { id: SWEEP_FRAME, height: HEIGHT });
        await page.waitFor(
          sweepFrameReady,
          { id: SWEEP_FRAME, control: LONE_WORD_CONTROL },
          "the page's copy in the sweep frame",
        );
        const { sweep } = await page.evaluate(designFacts, {
          sweep: { frame: SWEEP_FRAME, widths: PHONE_WIDTHS },
        });
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
      }, 300_000);

      for (const { name, viewport } of SIZES) {
        for (const javaScript of [true, false]) {
          it(`${name}, JavaScript ${javaScript ? "on" : "off"}`, async () => {
            const page = await visitor(javaScript);
            await page.open("/", viewport);
            const orphans = (await page.evaluate(designFacts, true)).loneWords;
            expect(orphans, JSON.stringify(orphans, null, 1)).toEqual([]);
          });
        }
      }
    },
    { fonts },
  );
}
