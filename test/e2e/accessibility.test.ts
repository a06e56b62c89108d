import AxeBuilder from "@axe-core/playwright";
import type { AxeResults, NodeResult } from "axe-core";
import type { Page } from "playwright-core";
import { expect, it } from "vitest";

import { describeBrowser, SIZES, useStack } from "./support/browser";
import { faqs } from "~/content/faq";

import { pageStep, scrollThrough, submitButton, toast } from "./support/page";
import { AXE_TAGS, VALIDATION_TITLE } from "./support/spec-texts";

/** axe on a long page takes a while on a busy 2-core machine. */
const AXE_TIMEOUT = 120_000;

/**
 * Reasons axe leaves a text's contrast for review because it cannot compute the background (a
 * gradient, an image, another element): those are measured below from the pixels. Any other reason
 * (a colour it cannot parse, an error, "default") means the rule did not run.
 */
const FOR_REVIEW = new Set([
  "bgImage",
  "bgGradient",
  "imgNode",
  "bgOverlap",
  "fgAlpha",
  "elmPartiallyObscured",
  "elmPartiallyObscuring",
  "pseudoContent",
  "outsideViewport",
  "complexTextShadows",
  "shortTextContent",
  "nonBmp",
]);

const reasonOf = (node: NodeResult) =>
  [...node.any, ...node.all, ...node.none]
    .map((check) => (check.data as { messageKey?: string } | null)?.messageKey)
    .find(Boolean) ?? "default";

interface Measured {
  target: string;
  reason: string;
  ratio: number;
  required: number;
}

/**
 * Constructed sheets, so the page's policy on inline styles does not apply, and one style change for
 * the whole page rather than one per element (issue 39).
 */
async function installTextHider(page: Page): Promise<void> {
  await page.evaluate(() => {
    const still = new CSSStyleSheet();
    still.replaceSync("* { transition: none !important; }");
    const hidden = new CSSStyleSheet();
    // An SVG text is painted with its fill, not its colour (the services flow diagram).
    hidden.replaceSync(
      "* { color: transparent !important; -webkit-text-fill-color: transparent !important; text-shadow: none !important; }" +
        " svg text, svg tspan { fill: transparent !important; }",
    );
    hidden.disabled = true;
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, still, hidden];
    (window as unknown as { textHider: unknown }).textHider = { still, hidden };
  });
}

type TextHider = { still: CSSStyleSheet; hidden: CSSStyleSheet };

async function setTextHidden(page: Page, hidden: boolean): Promise<void> {
  await page.evaluate((hidden) => {
    (window as unknown as { textHider: TextHider }).textHider.hidden.disabled = !hidden;
  }, hidden);
}

async function removeTextHider(page: Page): Promise<void> {
  await page.evaluate(() => {
    const { still, hidden } = (window as unknown as { textHider: TextHider }).textHider;
    document.adoptedStyleSheets = document.adoptedStyleSheets.filter(
      (sheet) => sheet !== still && sheet !== hidden,
    );
  });
}

interface OnScreen {
  index: number;
  color: string;
  large: boolean;
  clip: { x: number; y: number; width: number; height: number };
}

/**
 * Two screenshots, as shown and with every text transparent: where they differ, glyphs are drawn,
 * and each text's worst pixel against what lies behind it counts. Every text wholly on screen and on
 * top when the first pending one is centred is measured from the same pair.
 */
async function measureContrast(
  page: Page,
  selectors: string[],
): Promise<{ ratio: number; required: number }[]> {
  const results: { ratio: number; required: number }[] = [];
  // A text scrolled under the pointer would turn to its hover colours: unless the pointer rests on
  // something fixed (a toast it keeps open, the header), it moves to the fixed header.
  const pointerOnFixed = await page.evaluate(() =>
    Array.from(document.querySelectorAll(":hover")).some((el) => getComputedStyle(el).position === "fixed"),
  );
  if (!pointerOnFixed) await page.mouse.move(1, 1);
  await installTextHider(page);
  const pending = new Set(selectors.map((_, index) => index));
  while (pending.size > 0) {
    const first = Math.min(...pending);
    const view = await page.evaluate(
      ({ selectors, first, pending }) => {
        const elementOf = (sel: string) => {
          const element = document.querySelector(sel);
          if (!element) throw new Error(`no element ${sel}`);
          return element;
        };
        elementOf(selectors[first]!).scrollIntoView({ block: "center", behavior: "instant" });
        const onTopAt = (element: Element, x: number, y: number) => {
          const top = document.elementFromPoint(x, y);
          return top !== null && (element.contains(top) || top.contains(element));
        };
        const shown: OnScreen[] = [];
        // Under something else where it is (a toast over the header's call to action): no one
        // reads it there, and its pixels would be the other element's glyphs.
        const underAnother: number[] = [];
        for (const index of pending) {
          const element = elementOf(selectors[index]!);
          const rect = element.getBoundingClientRect();
          const style = getComputedStyle(element);
          const size = parseFloat(style.fontSize);
          const x = Math.max(0, rect.x);
          const y = Math.max(0, rect.y);
          const text = {
            index,
            color: element instanceof SVGTextContentElement ? style.fill : style.color,
            large: size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700),
            clip: {
              x,
              y,
              width: Math.min(rect.right, window.innerWidth) - x,
              height: Math.min(rect.bottom, window.innerHeight) - y,
            },
          };
          if (index === first) {
            if (!onTopAt(element, rect.x + rect.width / 2, rect.y + rect.height / 2))
              underAnother.push(index);
            else shown.push(text);
            continue;
          }
          const inset = 1;
          const whole =
            rect.width > 2 * inset &&
            rect.height > 2 * inset &&
            rect.left >= 0 &&
            rect.top >= 0 &&
            rect.right <= window.innerWidth &&
            rect.bottom <= window.innerHeight;
          const points: [number, number][] = [
            [rect.x + rect.width / 2, rect.y + rect.height / 2],
            [rect.left + inset, rect.top + inset],
            [rect.right - inset, rect.top + inset],
            [rect.left + inset, rect.bottom - inset],
            [rect.right - inset, rect.bottom - inset],
          ];
          if (whole && points.every(([px, py]) => onTopAt(element, px, py))) shown.push(text);
        }
        return { shown, underAnother };
      },
      { selectors, first, pending: [...pending] },
    );
    for (const index of view.underAnother) {
      results[index] = { ratio: Infinity, required: 0 };
      pending.delete(index);
    }
    if (view.shown.length === 0) continue;
    const shown = await page.screenshot();
    await setTextHidden(page, true);
    const behind = await page.screenshot();
    await setTextHidden(page, false);
    const ratios = await page.evaluate(
      async ({ shown, behind, texts }) => {
        // Images, not fetch(): the page's policy allows data: images, not data: connections.
        const pixelsOf = async (data: string) => {
          const image = new Image();
          image.src = `data:image/png;base64,${data}`;
          await image.decode();
          const canvas = new OffscreenCanvas(image.naturalWidth, image.naturalHeight);
          const context = canvas.getContext("2d")!;
          context.drawImage(image, 0, 0);
          return { context, scale: image.naturalWidth / window.innerWidth };
        };
        const [glyphImage, backgroundImage] = [await pixelsOf(shown), await pixelsOf(behind)];
        const channel = (value: number) => {
          const c = value / 255;
          return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
        };
        const luminance = (red: number, green: number, blue: number) =>
          0.2126 * channel(red) + 0.7152 * channel(green) + 0.0722 * channel(blue);
        return texts.map(({ clip, color }) => {
          const scale = glyphImage.scale;
          const [x, y] = [Math.round(clip.x * scale), Math.round(clip.y * scale)];
          const [width, height] = [
            Math.max(1, Math.round(clip.width * scale)),
            Math.max(1, Math.round(clip.height * scale)),
          ];
          const glyphs = glyphImage.context.getImageData(x, y, width, height).data;
          const background = backgroundImage.context.getImageData(x, y, width, height).data;
          const [r, g, b, a = 1] = (color.match(/[\d.]+/g) ?? []).map(Number) as number[];
          let worst = Infinity;
          for (let i = 0; i < background.length; i += 4) {
            const drawn =
              Math.abs(glyphs[i]! - background[i]!) +
              Math.abs(glyphs[i + 1]! - background[i + 1]!) +
              Math.abs(glyphs[i + 2]! - background[i + 2]!);
            if (drawn < 24) continue;
            const [br, bg, bb] = [background[i]!, background[i + 1]!, background[i + 2]!];
            // The text colour as it is painted over this pixel (it may be translucent).
            const fg = luminance(r! * a + br * (1 - a), g! * a + bg * (1 - a), b! * a + bb * (1 - a));
            const back = luminance(br, bg, bb);
            worst = Math.min(worst, (Math.max(fg, back) + 0.05) / (Math.min(fg, back) + 0.05));
          }
          return worst;
        });
      },
      { shown: shown.toString("base64"), behind: behind.toString("base64"), texts: view.shown },
    );
    for (const [position, text] of view.shown.entries()) {
      const ratio = ratios[position]!;
      pending.delete(text.index);
      if (!Number.isFinite(ratio)) {
        // Nothing of it drawn: it must be under something else (the open phone menu), so no one sees it.
        const covered = await page.evaluate((sel) => {
          const element = document.querySelector(sel)!;
          const rect = element.getBoundingClientRect();
          const top = document.elementFromPoint(rect.x + rect.width / 2, rect.y + rect.height / 2);
          return top !== null && !element.contains(top);
        }, selectors[text.index]!);
        if (!covered) throw new Error(`no glyph of ${selectors[text.index]} was found on the screen`);
        results[text.index] = { ratio: Infinity, required: 0 };
        continue;
      }
      results[text.index] = { ratio: Math.round(ratio * 100) / 100, required: text.large ? 3 : 4.5 };
    }
  }
  await removeTextHider(page);
  return results;
}

interface Audit {
  problems: string[];
  /** Texts left for review, with the contrast measured from the pixels. */
  measured: Measured[];
  contrastChecked: number;
}

async function audit(page: Page, label: string, measureWithin?: string, only?: string[]): Promise<Audit> {
  const builder = new AxeBuilder({ page }).withTags(AXE_TAGS);
  for (const selector of only ?? []) builder.include(selector);
  const results: AxeResults = await pageStep(page, `${label}: axe`, builder.analyze(), AXE_TIMEOUT / 2);
  const problems = results.violations.map(
    (v) =>
      `${v.id} (${v.impact}): ${v.help} — ` +
      v.nodes
        .slice(0, 5)
        .map((n) => `${n.target.join(" ")}: ${n.failureSummary?.split("\n").join(" ")}`)
        .join("; "),
  );
  for (const rule of [...results.incomplete, ...results.passes, ...results.violations]) {
    const errored = (rule as unknown as { error?: unknown }).error;
    if (errored) problems.push(`${rule.id}: axe could not run it (${String(errored)})`);
  }
  const contrastRules = ["color-contrast", "color-contrast-enhanced"];
  const checked = (list: AxeResults["passes"]) =>
    list.filter((rule) => rule.id === "color-contrast").reduce((sum, rule) => sum + rule.nodes.length, 0);
  const contrastChecked = checked(results.passes) + checked(results.violations);

  const measured: Measured[] = [];
  const review: { target: string; reason: string }[] = [];
  for (const rule of results.incomplete.filter((r) => contrastRules.includes(r.id))) {
    for (const node of rule.nodes) {
      const reason = reasonOf(node);
      const target = node.target.join(" ");
      if (FOR_REVIEW.has(reason)) {
        // Behind an open dialog (the phone menu) a text is dimmed on purpose and not meant to be read.
        const inside = measureWithin
          ? await page.evaluate(({ sel, within }) => Boolean(document.querySelector(sel)?.closest(within)), {
              sel: target,
              within: measureWithin,
            })
          : true;
        if (inside) review.push({ target, reason });
      } else
        problems.push(
          `${rule.id}: axe could not evaluate ${target} (${reason}: ${node.failureSummary ?? ""})`,
        );
    }
  }
  const targets = review.map((item) => item.target);
  const ratios =
    review.length > 0
      ? await pageStep(page, `${label}: contrast`, measureContrast(page, targets), AXE_TIMEOUT / 2)
      : [];
  review.forEach((item, index) => measured.push({ ...item, ...ratios[index]! }));
  for (const item of measured) {
    if (item.ratio < item.required) {
      problems.push(
        `contrast ${item.ratio}:1 < ${item.required}:1 measured on ${item.target} (${item.reason})`,
      );
    }
  }
  if (measured.length > 0) {
    console.log(
      `${label}: ${contrastChecked} texts checked by axe; left for review and measured from the pixels:\n` +
        measured
          .map((m) =>
            m.required === 0
              ? `  covered by another element, not visible  ${m.target}  [${m.reason}]`
              : `  ${m.ratio}:1 (needs ${m.required}:1)  ${m.target}  [${m.reason}]`,
          )
          .join("\n"),
    );
  }
  return { problems, measured, contrastChecked };
}

/**
 * Axe itself must have checked texts (the proof that the rule runs), except on a page whose every
 * text sits on a gradient (the 404), where the texts measured from the pixels count.
 */
async function expectAccessible(
  page: Page,
  label: string,
  {
    axeMustCheck = true,
    measureWithin,
    only,
  }: {
    axeMustCheck?: boolean;
    measureWithin?: string;
    /** The parts a state changes, when the rest of the page was already audited whole. */
    only?: string[];
  } = {},
): Promise<Audit> {
  const result = await audit(page, label, measureWithin, only);
  expect(result.problems).toEqual([]);
  const measured = result.measured.filter((item) => item.required > 0).length;
  if (axeMustCheck)
    expect(result.contrastChecked, "axe checked the contrast of no text at all").toBeGreaterThan(0);
  else expect(result.contrastChecked + measured, "no text's contrast was checked").toBeGreaterThan(0);
  return result;
}

describeBrowser("accessibility (axe: WCAG 2.2 AA tags, colour contrast really checked)", () => {
  const stack = useStack();

  /** Axe cannot parse oklch/oklab: the stylesheet must have them compiled to sRGB. */
  async function expectColoursAxeCanParse(page: Page): Promise<void> {
    const stylesheet = page.evaluate(async () => {
      const link = document.querySelector<HTMLLinkElement>('link[rel="stylesheet"]');
      return (await fetch(link!.href)).text();
    });
    const css = await pageStep(page, "fetching the stylesheet", stylesheet);
    const colourDeclarations =
      css.match(/(?:^|[;{])\s*(?:color|background(?:-color)?|border(?:-[a-z]+)?-color)\s*:[^;}]*/g) ?? [];
    expect(colourDeclarations.length).toBeGreaterThan(20);
    expect(colourDeclarations.filter((declaration) => /okl(?:ab|ch)\(/.test(declaration))).toEqual([]);
  }

  // One page per size goes through the states a visitor brings about in turn.
  for (const { name, options } of SIZES) {
    it(
      `${name}: home page, FAQ collapsed${name === "phone" ? ", the mobile menu open" : ""}, FAQ expanded (all 8, one answer open), a toast open (the validation error)`,
      async () => {
        const page = await stack.page(options);
        await expectColoursAxeCanParse(page);
        await scrollThrough(page, faqs[0]!.question);
        await expectAccessible(page, `${name}, FAQ collapsed`);

        if (name === "phone") {
          const toggle = page.locator('[aria-controls="mobile-menu"]').filter({ visible: true }).first();
          await toggle.click();
          await page.locator("#mobile-menu").waitFor({ state: "visible" });
          // The menu dims the whole page: audited whole, texts measured only in the menu and header.
          await expectAccessible(page, "phone, menu open", { measureWithin: "#mobile-menu, header" });
          await page.keyboard.press("Escape");
          await page.locator("#mobile-menu").waitFor({ state: "hidden" });
        }

        const faq = page.locator("#faq");
        await faq.getByRole("button", { name: "View More Questions" }).click();
        await faq.getByRole("button", { name: "View Less" }).waitFor();
        await faq.locator("button[aria-expanded=false]").filter({ visible: true }).first().click();
        // The open animation has finished (its own event, not a guess of its length).
        await faq.evaluate((el) =>
          Promise.all(el.getAnimations({ subtree: true }).map((animation) => animation.finished)),
        );
        await expectAccessible(page, `${name}, FAQ expanded`, { only: ["#faq"] });

        await submitButton(page).click();
        const notice = toast(page, VALIDATION_TITLE);
        await notice.waitFor();
        // The pointer on the toast pauses its timer: it stays open while axe runs.
        await notice.hover();
        // The toast, and the form whose fields the error marked.
        const result = await expectAccessible(page, `${name}, toast open`, {
          only: ["[role=region]", "#contact"],
        });
        await expect(notice.isVisible()).resolves.toBe(true);
        const toastTexts = await page.evaluate(() => document.querySelectorAll("[role=region] li *").length);
        expect(toastTexts).toBeGreaterThan(0);
        expect(result.contrastChecked).toBeGreaterThan(0);
      },
      AXE_TIMEOUT * 2,
    );

    it(
      `${name}: privacy page`,
      async () => {
        const page = await stack.page(options, { path: "/privacy" });
        await scrollThrough(page);
        await expectAccessible(page, `${name}, privacy`);
      },
      AXE_TIMEOUT,
    );

    it(
      `${name}: 404 page`,
      async () => {
        const page = await stack.page(options, { path: "/definitely/not/here" });
        await expectAccessible(page, `${name}, 404`, { axeMustCheck: false });
      },
      AXE_TIMEOUT,
    );
  }
});
