/**
 * Design checks that run inside the page: `page.evaluate(designFacts)` reads what Chromium laid out
 * and painted, at the viewport the test chose. One function, because `page.evaluate` sends only the
 * function's own source: its helpers must live inside it.
 */

export interface ShapeSystem {
  /** Distinct corner radii of boxes with a background or a border, pills and circles left out. */
  radii: string[];
  shadows: string[];
  /** Where each radius and shadow was seen first, for the failure message. */
  examples: Record<string, string>;
}

export interface StarContrast {
  card: string;
  star: [number, number, number];
  background: [number, number, number];
}

export interface LoneWord {
  text: string;
  lines: number;
  lastWord: string;
}

export interface DesignFacts {
  shapes: ShapeSystem;
  stars: StarContrast[];
  loneWords: LoneWord[];
  /** The number of lines of each text block the lone-word check looked at, in document order. */
  blockLines: number[];
  /** With `{ sweep }`: the same two facts of the copy in the frame, at each width. */
  sweep: { width: number; loneWords: LoneWord[]; blockLines: number[] }[];
}

export const SWEEP_FRAME = "lone-word-sweep";

/**
 * Puts a copy of the page as it stands (JavaScript off: the server's HTML) in a `srcdoc` frame, so the
 * page's `frame-ancestors 'none'` is not in the way and its policy and base URL are the page's. A
 * frame's width is its document's viewport: resizing it lays the copy out at each width without the
 * window, its compositor and the driver in the loop (issue 39). The test checks the frame against the
 * window at a few widths (`blockLines`).
 */
export function mountSweepFrame({ id, height }: { id: string; height: number }): void {
  const frame = document.createElement("iframe");
  frame.id = id;
  frame.style.cssText = `position: fixed; left: 0; top: 0; border: 0; margin: 0; padding: 0; height: ${height}px; width: 320px; z-index: 2147483647; background: white;`;
  frame.srcdoc = `<!DOCTYPE html>${document.documentElement.outerHTML}`;
  document.body.append(frame);
}

/**
 * The start of a planted last paragraph whose last word is too long to share its line at many phone
 * widths: the sweep must find it there (a check that cannot fail proves nothing).
 */
export const LONE_WORD_CONTROL = "A planted paragraph";

/** Whether the copy has loaded with its style sheets; then plants the control paragraph at its end. */
export function sweepFrameReady({ id, control }: { id: string; control: string }): boolean {
  const frame = document.getElementById(id) as HTMLIFrameElement | null;
  const doc = frame?.contentDocument;
  if (!doc || doc.URL !== "about:srcdoc" || doc.readyState !== "complete") return false;
  if (doc.styleSheets.length === 0 || !doc.body) return false;
  if (!doc.getElementById("lone-word-control")) {
    const paragraph = doc.createElement("p");
    paragraph.id = "lone-word-control";
    paragraph.style.textWrap = "wrap";
    paragraph.textContent = `${control} of short words, alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu, ends on Pneumonoultramicroscopic`;
    doc.body.append(paragraph);
  }
  return true;
}

/** WCAG contrast ratio of two opaque sRGB colours. */
export function contrastRatio(a: [number, number, number], b: [number, number, number]): number {
  const luminance = ([r, g, b]: [number, number, number]) => {
    const channel = (c: number) => {
      const s = c / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    };
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/**
 * Everything the design tests read from the page; `true`: only the lone words (the rest reads every
 * element's style); `{ sweep }`: also the lone words of the sweep frame's copy at each width.
 */
export function designFacts(
  mode: boolean | { sweep: { frame: string; widths: number[] } } = false,
): DesignFacts {
  /** Whether an element is rendered and not visually hidden on purpose (sr-only, hidden, closed). */
  function rendered(el: Element): boolean {
    const known = renderedMemo.get(el);
    if (known !== undefined) return known;
    const answer = (() => {
      if (!el.checkVisibility({ visibilityProperty: true, opacityProperty: true })) return false;
      for (let node: Element | null = el; node && node !== el.ownerDocument.body; node = node.parentElement) {
        const style = getComputedStyle(node);
        if (style.clip !== "auto" || (style.position === "absolute" && node.clientWidth <= 1)) return false;
      }
      const box = el.getBoundingClientRect();
      return box.width > 0 && box.height > 0;
    })();
    renderedMemo.set(el, answer);
    return answer;
  }
  // What `rendered` and `display` found, for one layout: the lone-word check asks again for the same
  // elements a hundred times in a sweep. `loneWords` empties them, as the layout may have changed.
  let renderedMemo = new Map<Element, boolean>();
  let displayMemo = new Map<Element, string>();
  function display(el: Element): string {
    let value = displayMemo.get(el);
    if (value === undefined) displayMemo.set(el, (value = getComputedStyle(el).display));
    return value;
  }

  /** `rgb(…)`/`rgba(…)` → [r, g, b, a]. */
  function parseColor(value: string): [number, number, number, number] {
    const parts = value.match(/[\d.]+/g)?.map(Number) ?? [];
    const [r = 0, g = 0, b = 0, a = 1] = parts;
    return [r, g, b, value.startsWith("rgba") ? a : 1];
  }

  /**
   * The corner radii and shadows the page paints: only boxes with a background or a border count (a
   * radius on an invisible box draws nothing), and no pills or circles (radius ≥ half the shorter side).
   */
  function shapeSystem(): ShapeSystem {
    const radii = new Set<string>();
    const shadows = new Set<string>();
    const examples: Record<string, string> = {};
    const describe = (el: Element) =>
      `<${el.tagName.toLowerCase()} class="${String(el.getAttribute("class") ?? "").slice(0, 80)}">`;
    for (const el of Array.from(document.body.querySelectorAll("*"))) {
      if (el.closest("svg") && el.tagName.toLowerCase() !== "svg") continue;
      if (!rendered(el)) continue;
      const style = getComputedStyle(el);
      const box = el.getBoundingClientRect();
      if (style.boxShadow !== "none") {
        shadows.add(style.boxShadow);
        examples[style.boxShadow] ??= describe(el);
      }
      const painted =
        parseColor(style.backgroundColor)[3] > 0 ||
        style.backgroundImage !== "none" ||
        ["Top", "Right", "Bottom", "Left"].some(
          (side) => parseFloat(style.getPropertyValue(`border-${side.toLowerCase()}-width`)) > 0,
        );
      if (!painted) continue;
      const half = Math.min(box.width, box.height) / 2;
      for (const corner of ["top-left", "top-right", "bottom-right", "bottom-left"]) {
        const value = style.getPropertyValue(`border-${corner}-radius`);
        const px = value.endsWith("%")
          ? (parseFloat(value) / 100) * Math.min(box.width, box.height)
          : parseFloat(value);
        if (!px || px >= half - 0.5) continue;
        radii.add(value);
        examples[value] ??= describe(el);
      }
    }
    return { radii: [...radii].sort(), shadows: [...shadows].sort(), examples };
  }

  /** Each testimonial's star colour and its card's (the nearest ancestor with an opaque background). */
  function starColours(): StarContrast[] {
    return Array.from(document.querySelectorAll("#testimonials article[data-testimonial]")).map((card) => {
      const svg = card.querySelector("svg");
      if (!svg) throw new Error("a testimonial without its stars");
      const [r, g, b] = parseColor(getComputedStyle(svg).fill);
      let node: Element | null = svg;
      let background: [number, number, number] | null = null;
      while (node && !background) {
        const [br, bg, bb, ba] = parseColor(getComputedStyle(node).backgroundColor);
        if (ba >= 0.99) background = [br, bg, bb];
        node = node.parentElement;
      }
      return {
        card: (card.textContent ?? "").trim().slice(0, 40),
        star: [r, g, b],
        background: background ?? [255, 255, 255],
      };
    });
  }

  /**
   * Text blocks whose last line holds a single word (an orphan: "faster." alone under a paragraph).
   * A block is an element that lays out text itself (paragraphs, headings, list items, quotes,
   * labels, links and buttons with text).
   */
  function loneWords(doc: Document): { loneWords: LoneWord[]; blockLines: number[] } {
    renderedMemo = new Map();
    displayMemo = new Map();
    const blocks = Array.from(
      doc.body.querySelectorAll("p, h1, h2, h3, li, blockquote, dd, label, summary, a, button"),
    ).filter((el) => {
      if (!rendered(el) || el.closest("svg, [aria-hidden='true']")) return false;
      if (display(el) === "inline" || display(el) === "contents") return false;
      // Only blocks whose own text (not a nested block's) is laid out here.
      return Array.from(el.childNodes).some(
        (node) =>
          (node.nodeType === Node.TEXT_NODE && (node.textContent ?? "").trim() !== "") ||
          // An element of the frame's document is no instance of this window's HTMLElement.
          (node.nodeType === Node.ELEMENT_NODE &&
            ["inline", "inline-block"].includes(display(node as Element)) &&
            (node.textContent ?? "").trim() !== ""),
      );
    });
    const found: LoneWord[] = [];
    const blockLines: number[] = [];
    const centreOf = (rect: DOMRect) => Math.round(rect.top + rect.height / 2);
    const sameLine = (a: number, b: number) => Math.abs(a - b) < 4;
    for (const block of blocks) {
      const texts: Text[] = [];
      const walker = doc.createTreeWalker(block, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const parent = node.parentElement;
        if (!parent || !rendered(parent)) continue;
        let nested = false;
        for (let el: Element | null = parent; el && el !== block; el = el.parentElement) {
          if (!["inline", "inline-block", "contents"].includes(display(el))) nested = true;
        }
        if (!nested && /\S/.test(node.textContent ?? "")) texts.push(node as Text);
      }
      const range = doc.createRange();
      // Its lines, from one range per text node: one box per line it is on.
      const lineCentres: number[] = [];
      for (const node of texts) {
        range.selectNodeContents(node);
        for (const rect of Array.from(range.getClientRects()))
          if (rect.width > 0 && !lineCentres.some((line) => sameLine(line, centreOf(rect))))
            lineCentres.push(centreOf(rect));
      }
      blockLines.push(lineCentres.length);
      const topsOf = (node: Text, start: number, length: number) => {
        range.setStart(node, start);
        range.setEnd(node, start + length);
        return Array.from(range.getClientRects())
          .filter((rect) => rect.width > 0)
          .map(centreOf);
      };
      // Most blocks end on a line of two words or more: the word before the last on the lowest line
      // settles it, without measuring every word (the sweep asks this a hundred times).
      const positions = texts.flatMap((node) =>
        [...(node.textContent ?? "").matchAll(/\S+/g)].map((match) => ({
          node,
          index: match.index,
          word: match[0],
        })),
      );
      const lowest = Math.max(...lineCentres);
      const before = positions.at(-2);
      if (
        before &&
        topsOf(before.node, before.index, before.word.length).some((top) => sameLine(top, lowest))
      )
        continue;
      const words: { word: string; tops: number[] }[] = [];
      for (const { node, index, word } of positions) {
        const tops = topsOf(node, index, word.length);
        if (tops.length > 0) words.push({ word, tops });
      }
      const lines: number[] = [];
      for (const { tops } of words)
        for (const top of tops) if (!lines.some((line) => sameLine(line, top))) lines.push(top);
      if (words.length < 2 || lines.length < 2) continue;
      const last = Math.max(...lines);
      const onLast = words.filter(({ tops }) => tops.some((top) => Math.abs(top - last) < 4));
      // Every line one word: a label of two words too wide for one line ("Questions, / answered"
      // at 320 px) is as balanced as it can be; a lone word is one left below a fuller line.
      const fullerLineBefore = lines
        .filter((line) => line !== last)
        .some((line) => words.filter(({ tops }) => tops.some((top) => Math.abs(top - line) < 4)).length > 1);
      // One word on the last line, and no earlier part of it on a line before (a word broken at its hyphen is two parts).
      if (fullerLineBefore && onLast.length === 1 && onLast[0]!.tops.every((top) => Math.abs(top - last) < 4))
        found.push({
          text: (block.textContent ?? "").trim().replace(/\s+/g, " ").slice(0, 70),
          lines: lines.length,
          lastWord: onLast[0]!.word,
        });
    }
    return { loneWords: found, blockLines };
  }

  /** The copy in the sweep frame, laid out at each width in turn. */
  function sweep({ frame: id, widths }: { frame: string; widths: number[] }): DesignFacts["sweep"] {
    const frame = document.getElementById(id) as HTMLIFrameElement;
    const doc = frame.contentDocument!;
    return widths.map((width) => {
      frame.style.width = `${width}px`;
      // The frame's new size (the page's layout), then the copy's layout at it.
      frame.getBoundingClientRect();
      const viewport = doc.documentElement.clientWidth;
      if (frame.contentWindow!.innerWidth !== width)
        throw new Error(
          `the sweep frame is ${frame.contentWindow!.innerWidth} px wide, not ${width} (${viewport})`,
        );
      return { width, ...loneWords(doc) };
    });
  }

  const onlyLoneWords = mode !== false;
  const here = loneWords(document);
  const swept = typeof mode === "object" ? sweep(mode.sweep) : [];
  if (onlyLoneWords)
    return { shapes: { radii: [], shadows: [], examples: {} }, stars: [], ...here, sweep: swept };
  return { shapes: shapeSystem(), stars: starColours(), ...here, sweep: swept };
}
