/**
 * A cheaper first frame (decision 036): with JavaScript, app/styles/app.css gives `LATER_PARTS`
 * `content-visibility: auto`, so the first frame lays out only what is in view. This script then
 * renders each part for good, one per frame in idle time after the first paint, so that soon after
 * load every position is real, nothing left for a scroll, a search or a screen reader to estimate.
 *
 * Estimated heights must never decide where the visitor lands, so every part is rendered at once:
 * when the page opens at a fragment or a restored position (reload, back); before a click follows
 * a link into one; at the first key press (Tab scrolls the next control into view, which would end
 * off screen once the parts above it render; arrows, page and space scroll); when focus moves into
 * one; when a form is submitted (its answer may open a toast fixed to the viewport).
 */

/** What the stylesheet may leave unrendered: every section after the first, the footer. */
export const LATER_PARTS = "main > section ~ section, body > footer";

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

/** Renders the later parts; the one-per-frame path starts when the returned function is called. */
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
    // Its style and layout now, in this idle task, so that the frame that shows it only paints.
    void part.offsetHeight;
    // The next part after the frame that renders this one: never two parts' work in one frame.
    requestAnimationFrame(() => idle(next));
  };
  return () => idle(next);
}
