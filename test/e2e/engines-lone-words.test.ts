/**
 * No paragraph, heading or label ends on a lone word (issues 20, 35, 39), in the three engines and
 * with either font set a visitor may have (decision 039): a bare Debian's DejaVu only, and
 * Liberation Sans, which measures like Arial and Helvetica. The page keeps this promise with CSS
 * (`text-wrap`) and no-break spaces, never by tuning for one font.
 */
import { expect, it } from "vitest";

import { FONT_SETS, missingFamilies } from "../fonts/font-sets";
import { designFacts } from "./support/design";
import { describeEngines } from "./support/engines/suite";
import { SIZES } from "./support/engines/visitor";

/** Every phone width a visitor may have, one pixel apart (issue 35): none hides a lone word. */
const PHONE_WIDTHS = Array.from({ length: 430 - 320 + 1 }, (_, index) => 320 + index);

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
        // pages), so every block is measured; the page is loaded once, resized width by width.
        const page = await visitor(false);
        await page.open("/", { width: PHONE_WIDTHS[0]!, height: 844 });
        const found: { width: number; text: string; lastWord: string }[] = [];
        for (const width of PHONE_WIDTHS) {
          await page.resize({ width, height: 844 });
          for (const orphan of (await page.evaluate(designFacts, true)).loneWords)
            found.push({ width, text: orphan.text, lastWord: orphan.lastWord });
        }
        expect(found, JSON.stringify(found, null, 1)).toEqual([]);
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
