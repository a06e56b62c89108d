/**
 * Paint first, enhance after (decision 022).
 *
 * Every section of the page works as plain HTML, so the browser has no reason to fetch ~100 KB
 * of JavaScript before it shows the page. The server takes Remix's module preloads and its
 * module bootstrap out of the markup and keeps them in a JSON data block
 * (`holdScriptsUntilPaint` in `markup.server.ts`); the inline loader (`paint-first.inline.ts`,
 * compiled by the build, inserted by the server) calls `enhanceAfterFirstPaint`, which puts them
 * back once the first contentful paint has happened, so the scripts never compete with the HTML
 * and the stylesheet for a slow phone's bandwidth or main thread.
 *
 * They go back where Remix wrote them (the preloads before the context script, the bootstrap in
 * the data block's place), so the DOM React hydrates is the one `<Scripts>` rendered.
 */
export const HELD_SCRIPTS_ID = "paint-first-scripts";

/** What the data block holds (JSON). */
export interface HeldScriptsData {
  preloads: string[];
  module: string;
}

/** Puts the held preloads and bootstrap back, one small task per step. */
function restoreHeldScripts(block: HTMLElement): void {
  const held = JSON.parse(block.textContent ?? "") as HeldScriptsData;
  // The data block sits right after Remix's context script, and the preloads came before it.
  const contextScript = block.previousElementSibling ?? block;
  const steps: (() => void)[] = held.preloads.map((href) => () => {
    const link = document.createElement("link");
    link.rel = "modulepreload";
    link.setAttribute("href", href);
    contextScript.before(link);
  });
  steps.push(() => {
    const live = document.createElement("script");
    live.type = "module";
    live.async = true;
    // Exactly the text the server hashed into the document's policy.
    live.textContent = held.module;
    block.replaceWith(live);
  });
  // One small task per step: a long task here would count against the page's responsiveness.
  const next = () => {
    steps.shift()?.();
    if (steps.length > 0) setTimeout(next, 0);
  };
  next();
}

export function enhanceAfterFirstPaint(heldScriptsId: string = HELD_SCRIPTS_ID): void {
  let started = false;
  const enhance = () => {
    if (started) return;
    started = true;
    const block = document.getElementById(heldScriptsId);
    if (block) restoreHeldScripts(block);
  };
  const afterThisTask = () => setTimeout(enhance, 0);
  // A safety net: should a browser list paint timing but never report a contentful paint, the
  // page still gets its scripts a little after it has loaded.
  window.addEventListener("load", () => setTimeout(enhance, 3000));
  try {
    if (PerformanceObserver.supportedEntryTypes.includes("paint")) {
      new PerformanceObserver((entries, observer) => {
        if (entries.getEntriesByName("first-contentful-paint").length === 0) return;
        observer.disconnect();
        afterThisTask();
      }).observe({ type: "paint", buffered: true });
      return;
    }
  } catch {
    // No paint timing: fall through to the next frame.
  }
  requestAnimationFrame(afterThisTask);
}
