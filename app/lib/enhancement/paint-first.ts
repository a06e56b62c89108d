/**
 * Paint first, enhance after (decision 022).
 *
 * Every section of the page works as plain HTML, so the browser has no reason to
 * fetch ~100 KB of JavaScript before it shows the page. The server renames
 * Remix's module preloads and its module script to inert forms (see
 * `html-stream.server.ts`); this inline script turns them back on once the
 * first contentful paint has happened, so the scripts never compete with the
 * HTML and the stylesheet for a slow phone's bandwidth or main thread.
 *
 * The DOM keeps the same elements in the same places, so hydration matches.
 */
export const HELD_PRELOAD_REL = "x-after-paint-modulepreload";
export const HELD_MODULE_TYPE = "x-after-paint-module";

/**
 * Runs in the browser as an inline script: it must not close over anything, as
 * it is serialised with `Function.prototype.toString`.
 */
function enhanceAfterFirstPaint(preloadRel: string, moduleType: string) {
  let started = false;
  // One small task per step: a long task here would count against the page's responsiveness.
  const enhance = () => {
    if (started) return;
    started = true;
    const steps: (() => void)[] = [];
    document.querySelectorAll<HTMLLinkElement>(`link[rel="${preloadRel}"]`).forEach((link) => {
      steps.push(() => {
        link.rel = "modulepreload";
      });
    });
    steps.push(() => {
      const held = document.querySelector<HTMLScriptElement>(`script[type="${moduleType}"]`);
      if (!held) return;
      // A new element, because a parsed script never runs again; same tag, same place.
      const live = document.createElement("script");
      live.type = "module";
      live.async = true;
      live.nonce = held.nonce;
      live.textContent = held.textContent;
      held.replaceWith(live);
    });
    const next = () => {
      steps.shift()?.();
      if (steps.length > 0) setTimeout(next, 0);
    };
    next();
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

/** The inline script's source. */
export const paintFirstLoaderSource = `(${enhanceAfterFirstPaint.toString()})(${JSON.stringify(
  HELD_PRELOAD_REL,
)},${JSON.stringify(HELD_MODULE_TYPE)})`;
