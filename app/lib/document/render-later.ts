/**
 * A cheaper first frame (decision 036).
 *
 * With JavaScript, the stylesheet gives the parts of the page after the hero (`LATER_PARTS`)
 * `content-visibility: auto` (app/styles/app.css, `@media (scripting: enabled)`): the browser's
 * first frame styles and lays out only what is in view, not the whole 14,000 px page. This script,
 * part of the inline loader, then renders every part for good (`content-visibility: visible`), one
 * per frame in idle time after the first paint, top to bottom, so that no frame does more than one
 * part's work and, within a second or so of load, the page is laid out exactly as without it: every
 * position real, nothing left for a scroll, a search or a screen reader to estimate.
 *
 * The estimated heights of the parts not rendered yet must never decide where the visitor lands, so
 * every part is rendered at once, in the same task:
 * - when the page opens at a fragment (`/#contact`, a form answer's `#contact-form`), or as a reload
 *   or a return to it, whose scroll position the browser restores;
 * - before the browser follows a link to a target inside one of them (a header or footer link);
 * - at the visitor's first key press, before the browser acts on it: Tab scrolls the next control
 *   into view, and a control below an estimated part would be left off screen once the part is
 *   rendered (the three-engine Tab test found it); the arrow, page and space keys scroll;
 * - when focus moves into one of them any other way (a script, an assistive technology);
 * - when a form is submitted (its answer may open a toast, fixed to the viewport).
 *
 * Without JavaScript (`scripting: none`) the stylesheet renders everything at once, as before.
 */

/** The parts of the page the stylesheet may leave unrendered: every section after the first, the footer. */
export const LATER_PARTS = "main > section ~ section, body > footer";

/** The events that may render every part at once (see above). */
const TRIGGERS = ["click", "submit", "keydown", "focusin"] as const;

/** Renders one part for good: no containment, no estimate, from now on. */
function renderNow(part: HTMLElement): void {
  part.style.contentVisibility = "visible";
}

/** Whether the browser will put the visitor somewhere other than the top of the page as it opens. */
export function opensAtAPosition(): boolean {
  if (location.hash !== "") return true;
  const navigation = performance.getEntriesByType?.("navigation")[0] as
    PerformanceNavigationTiming | undefined;
  return navigation?.type === "reload" || navigation?.type === "back_forward";
}

/** The in-page target of a click (an `<a href="#id">` around its target), if any. */
function clickedTarget(event: Event): Element | null {
  const anchor = event.target instanceof Element ? event.target.closest("a[href^='#']") : null;
  const id = anchor?.getAttribute("href")?.slice(1);
  return id ? document.getElementById(decodeURIComponent(id)) : null;
}

/**
 * Renders the later parts: all at once when the visitor's position depends on them; else one per
 * frame, each when the browser is idle (`idle`: `requestIdleCallback` or its stand-in), from the
 * moment the returned function is called (once the page has painted).
 */
export function renderLaterParts(idle: (step: () => void) => void): () => void {
  const waiting = Array.from(document.querySelectorAll<HTMLElement>(LATER_PARTS));
  const inAPart = (node: EventTarget | null) =>
    node instanceof Node && waiting.some((part) => part.contains(node));
  // Whether the event is about to put the visitor somewhere an estimated height would decide.
  const onEvent = (event: Event) => {
    const { type } = event;
    const decides =
      type === "submit" ||
      type === "keydown" ||
      inAPart(type === "focusin" ? event.target : clickedTarget(event));
    if (decides) renderAll();
  };
  const renderAll = () => {
    waiting.splice(0).forEach(renderNow);
    for (const type of TRIGGERS) document.removeEventListener(type, onEvent, true);
  };
  if (opensAtAPosition()) {
    renderAll();
    return () => {};
  }
  // Capture: before the page's own handlers and before the browser follows a link or moves focus.
  for (const type of TRIGGERS) document.addEventListener(type, onEvent, true);
  const next = () => {
    const part = waiting.shift();
    if (!part) return renderAll();
    renderNow(part);
    // Its style and layout now, in this idle task (a forced layout), so that the frame that shows
    // it only paints: one part's work split in two tasks, neither of them the whole (the largest
    // part's frame took 52-73 ms on a slow machine, split 40 + 20).
    void part.offsetHeight;
    // The next part after the frame that renders this one: never two parts' work in one frame.
    requestAnimationFrame(() => idle(next));
  };
  return () => idle(next);
}
