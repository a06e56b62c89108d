/**
 * Layout checks that run inside the page (pass them to `page.evaluate`): they read what Chromium
 * laid out, so they see the fonts, widths and line breaks a visitor gets at that viewport.
 */

/**
 * Everything on the page that spills out of its box horizontally, as readable lines (empty: none):
 * - content wider than its text container (a long word sticking out of its tile);
 * - text whose lines reach outside the viewport or a clipping ancestor: `body` clips (`overflow-x:
 *   clip`), so `documentElement.scrollWidth` alone cannot see text cut off;
 * - any other visible element reaching outside the viewport where no ancestor clips it;
 * - an SVG label wider than the shape it is drawn on.
 * Inside a sideways scroll container (the row of reviews on a phone) the visitor scrolls: its
 * scrollable area replaces the viewport, and it must fit the viewport itself. Elements not rendered
 * and visually hidden text (`sr-only`) are not looked at.
 */
export function findHorizontalOverflow(): string[] {
  const viewport = document.documentElement.clientWidth;
  const problems = new Set<string>();
  const name = (el: Element) => {
    const classes = String(el.getAttribute("class") ?? "")
      .split(/\s+/)
      .filter(Boolean)
      .slice(0, 3)
      .join(".");
    const text = (el.textContent ?? "").trim().replace(/\s+/g, " ").slice(0, 40);
    return `<${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""}${classes ? `.${classes}` : ""}> "${text}"`;
  };
  const visible = (el: Element) =>
    el.checkVisibility({ visibilityProperty: true, contentVisibilityAuto: true });
  /** Visually hidden on purpose (the sr-only pattern: an absolute 1 px box that clips). */
  const srOnly = (el: Element) => {
    for (let node: Element | null = el; node && node !== document.body; node = node.parentElement) {
      const style = getComputedStyle(node);
      if (style.clip !== "auto" || (style.clipPath !== "none" && style.position === "absolute")) return true;
      if (style.position === "absolute" && node.clientWidth <= 1 && style.overflowX !== "visible")
        return true;
    }
    return false;
  };
  const scrolls = (el: Element) => ["auto", "scroll"].includes(getComputedStyle(el).overflowX);
  /** The ancestors that clip horizontally (body's `overflow-x: clip` is the page's own edge). */
  const clippers = (el: Element) => {
    const result: Element[] = [];
    for (let node = el.parentElement; node && node !== document.body; node = node.parentElement) {
      if (getComputedStyle(node).overflowX !== "visible") result.push(node);
    }
    return result;
  };
  /** What a visitor can bring into view: the viewport, or the nearest sideways scroller's area. */
  const reachable = (el: Element): { left: number; right: number; within: string } => {
    const scroller = clippers(el).find(scrolls);
    if (!scroller) return { left: 0, right: viewport, within: `the ${viewport} px viewport` };
    const box = scroller.getBoundingClientRect();
    const left = box.left + scroller.clientLeft - scroller.scrollLeft;
    return { left, right: left + scroller.scrollWidth, within: `the scrollable area of ${name(scroller)}` };
  };

  for (const el of Array.from(document.body.querySelectorAll("*"))) {
    if (!visible(el) || srOnly(el) || el.closest("script, style, template, noscript")) continue;
    const style = getComputedStyle(el);
    const hasText = (el.textContent ?? "").trim() !== "";
    const inline = style.display === "inline" || style.display === "contents";
    // Inside an SVG there are no CSS boxes to spill out of: its labels are checked against their shapes below.
    const inSvg = el instanceof SVGElement && !(el instanceof SVGSVGElement);
    if (hasText && !inline && !inSvg && style.overflowX === "visible" && el.clientWidth > 0) {
      if (el.scrollWidth > el.clientWidth + 1)
        problems.add(
          `${name(el)}: content ${el.scrollWidth} px wide in a box of ${el.clientWidth} px (${el.scrollWidth - el.clientWidth} px out)`,
        );
    }
    if ((!hasText || scrolls(el)) && style.position !== "fixed") {
      const box = el.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      let left = box.left;
      let right = box.right;
      const area = reachable(el);
      // Clipped by the ancestors up to the one that scrolls (what lies beyond that one is reachable).
      for (const clipper of clippers(el)) {
        if (scrolls(clipper)) break;
        const clip = clipper.getBoundingClientRect();
        left = Math.max(left, clip.left);
        right = Math.min(right, clip.right);
      }
      if (right > left && (left < area.left - 1 || right > area.right + 1))
        problems.add(
          `${name(el)}: reaches ${Math.round(left)}..${Math.round(right)} px, outside ${area.within}`,
        );
    }
  }

  // An SVG label drawn on a shape of its own (a pill of the services diagram) stays inside that shape.
  for (const label of Array.from(document.body.querySelectorAll("svg text"))) {
    const shape = label.parentElement?.querySelector(":scope > rect, :scope > circle");
    if (!shape || !visible(label)) continue;
    const inner = label.getBoundingClientRect();
    const outer = shape.getBoundingClientRect();
    if (inner.left < outer.left - 1 || inner.right > outer.right + 1)
      problems.add(
        `<text> "${(label.textContent ?? "").trim()}": ${Math.round(inner.width)} px wide on a shape of ${Math.round(outer.width)} px`,
      );
  }

  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = (node.textContent ?? "").trim();
    const parent = node.parentElement;
    if (!text || !parent || parent.closest("script, style, template, noscript")) continue;
    if (!visible(parent) || srOnly(parent)) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const lines = Array.from(range.getClientRects()).filter((rect) => rect.width > 0);
    const ancestors = clippers(parent);
    const nearestScroller = ancestors.findIndex(scrolls);
    // Cut off only by the ancestors inside the one that scrolls: past it, the visitor scrolls.
    const clipping = nearestScroller < 0 ? ancestors : ancestors.slice(0, nearestScroller);
    const area = reachable(parent);
    for (const line of lines) {
      if (line.left < area.left - 1 || line.right > area.right + 1)
        problems.add(
          `"${text.slice(0, 40)}": text at ${Math.round(line.left)}..${Math.round(line.right)} px, outside ${area.within}`,
        );
      for (const clipper of clipping) {
        const clip = clipper.getBoundingClientRect();
        if (line.left < clip.left - 1 || line.right > clip.right + 1)
          problems.add(`"${text.slice(0, 40)}": text cut off by ${name(clipper)}`);
      }
    }
  }
  return Array.from(problems);
}

/**
 * What `findHorizontalOverflow` must report once `plantOverflowControl` has run: one of each kind
 * of spill it looks for, so a sweep that finds nothing on the page is known to be looking.
 */
export const OVERFLOW_CONTROL_FINDINGS = [
  /planted-overflow text.*: content \d+ px wide in a box of \d+ px/,
  /#planted-overflow-box.*outside the \d+ px viewport/,
  /"planted-overflow cut.*: text cut off by/,
];

/** Plants one spill of each kind at the end of the body, marked "planted-overflow". Runs in the page. */
export function plantOverflowControl(): void {
  // Styled through the CSSOM: the page's policy refuses style attributes (no 'unsafe-inline').
  const box = (styles: Partial<CSSStyleDeclaration>, text?: string) => {
    const element = document.createElement("div");
    Object.assign(element.style, styles);
    if (text !== undefined) {
      const span = document.createElement("span");
      span.style.whiteSpace = "nowrap";
      span.textContent = text;
      element.append(span);
    }
    return element;
  };
  const host = document.createElement("div");
  host.id = "planted-overflow";
  host.append(
    box({ width: "40px" }, "planted-overflow text wider than its box"),
    box({ width: "40px", height: "10px", marginLeft: "calc(100vw - 20px)" }),
    box({ width: "40px", overflow: "hidden" }, "planted-overflow cut off by its parent"),
  );
  host.children[1]!.id = "planted-overflow-box";
  document.body.append(host);
}

/** How many lines the text of the link with exactly this label takes (0: no such link). */
export function linkTextLines(label: string): { lines: number; width: number; box: number } {
  const link = Array.from(document.querySelectorAll("a")).find(
    (a) => (a.textContent ?? "").trim().replace(/\s+/g, " ") === label,
  );
  if (!link) return { lines: 0, width: 0, box: 0 };
  const tops: number[] = [];
  let width = 0;
  for (const child of Array.from(link.childNodes)) {
    if (child.nodeType !== Node.TEXT_NODE || !(child.textContent ?? "").trim()) continue;
    const range = document.createRange();
    range.selectNodeContents(child);
    for (const rect of Array.from(range.getClientRects())) {
      if (rect.width === 0) continue;
      width += rect.width;
      if (!tops.some((top) => Math.abs(top - rect.top) < 2)) tops.push(rect.top);
    }
  }
  return {
    lines: tops.length,
    width: Math.round(width),
    box: Math.round(link.getBoundingClientRect().width),
  };
}
