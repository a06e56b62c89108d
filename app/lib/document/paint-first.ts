/**
 * Paint first, enhance on intent (decisions 022 and 036): the server holds Remix's module preloads
 * and bootstrap in a JSON data block (`holdScriptsUntilPaint` in `markup.server.ts`); the inline
 * loader (`paint-first.inline.ts`) calls `enhanceOnIntent`, which puts them back at the visitor's
 * first interaction or in idle time after load and first paint, whichever comes first.
 *
 * One step per task, so none blocks a tap: the preloads, the modules one by one (leaves first, in
 * the build's order), then the bootstrap, which only hydrates. All go back where Remix wrote them,
 * so React hydrates the DOM `<Scripts>` rendered; the evaluating scripts (allowed by
 * `'strict-dynamic'`) sit at the end of `<head>`, where React tolerates extra nodes, until run.
 */
export const HELD_SCRIPTS_ID = "paint-first-scripts";

export interface HeldScriptsData {
  preloads: string[];
  module: string;
}

export const INTENT_EVENTS = ["pointerdown", "touchstart", "keydown", "focusin"] as const;

/** `requestIdleCallback`'s timeout: a page kept busy (an animation) still gets its enhancement. */
export const IDLE_TIMEOUT_MS = 1000;

/** If a browser lists paint timing but never reports a contentful paint: this long after `load`. */
export const NO_PAINT_FALLBACK_MS = 3000;

/** One step of the enhancement; it calls `done` when the next one may be scheduled. */
type Step = (done: () => void) => void;

type Pace = (step: () => void) => void;

const nextTask: Pace = (step) => {
  setTimeout(step, 0);
};

/** In idle time; WebKit has no `requestIdleCallback`: there, the task after the next frame. */
export const idleTime: Pace = (step) => {
  if (typeof requestIdleCallback === "function") requestIdleCallback(step, { timeout: IDLE_TIMEOUT_MS });
  else requestAnimationFrame(() => setTimeout(step, 0));
};

function runSteps(steps: Step[], pace: Pace): void {
  const next = () => {
    const step = steps.shift();
    if (step) step(() => pace(next));
  };
  pace(next);
}

/** Evaluates a preloaded module in its own task; a failure goes on (the bootstrap reports it). */
function evaluateModule(href: string): Step {
  return (done) => {
    const script = document.createElement("script");
    script.type = "module";
    script.src = href;
    script.onload = script.onerror = () => {
      script.remove();
      done();
    };
    document.head.append(script);
  };
}

function restoreSteps(block: HTMLElement, evaluationOrder: readonly string[]): Step[] {
  const held = JSON.parse(block.textContent ?? "") as HeldScriptsData;
  // The data block sits right after Remix's context script, and the preloads came before it.
  const contextScript = block.previousElementSibling ?? block;
  const steps: Step[] = held.preloads.map((href) => (done) => {
    const link = document.createElement("link");
    link.rel = "modulepreload";
    link.setAttribute("href", href);
    contextScript.before(link);
    done();
  });
  for (const href of evaluationOrder) if (held.preloads.includes(href)) steps.push(evaluateModule(href));
  steps.push(() => {
    const live = document.createElement("script");
    live.type = "module";
    live.async = true;
    // Exactly the text the server hashed into the document's policy.
    live.textContent = held.module;
    block.replaceWith(live);
  });
  return steps;
}

/** Calls `then` once the page has loaded and painted its first content. */
export function afterLoadAndFirstPaint(then: () => void): void {
  let loaded = document.readyState === "complete";
  let painted = false;
  let called = false;
  const maybe = () => {
    if (loaded && painted && !called) {
      called = true;
      then();
    }
  };
  const paint = () => {
    painted = true;
    maybe();
  };
  if (!loaded)
    window.addEventListener("load", () => {
      loaded = true;
      maybe();
    });
  try {
    if (PerformanceObserver.supportedEntryTypes.includes("paint")) {
      new PerformanceObserver((entries, observer) => {
        if (entries.getEntriesByName("first-contentful-paint").length === 0) return;
        observer.disconnect();
        paint();
      }).observe({ type: "paint", buffered: true });
      // A safety net, should a browser list paint timing but never report a contentful paint.
      window.addEventListener("load", () => setTimeout(paint, NO_PAINT_FALLBACK_MS));
      return;
    }
  } catch {
    // No paint timing: the next frame is painted.
  }
  requestAnimationFrame(paint);
}

/** Restores the held scripts at the first interaction, or in idle time once the result is called. */
export function enhanceOnIntent(
  evaluationOrder: readonly string[] = [],
  heldScriptsId: string = HELD_SCRIPTS_ID,
): () => void {
  let started = false;
  let urgent = false;
  // The step waiting for idle time, if any: an interaction runs it in the next task instead.
  let waiting: (() => void) | null = null;

  const pace: Pace = (step) => {
    if (urgent) return nextTask(step);
    let ran = false;
    const once = () => {
      if (ran) return;
      ran = true;
      waiting = null;
      step();
    };
    waiting = once;
    idleTime(once);
  };

  const start = () => {
    if (started) return;
    started = true;
    const block = document.getElementById(heldScriptsId);
    if (block) runSteps(restoreSteps(block, evaluationOrder), pace);
  };

  const onIntent = () => {
    for (const type of INTENT_EVENTS) window.removeEventListener(type, onIntent, true);
    urgent = true;
    if (waiting) nextTask(waiting);
    start();
  };
  // Capture, passive: seen before the page's own handlers, never delaying a scroll or a tap.
  for (const type of INTENT_EVENTS) window.addEventListener(type, onIntent, { capture: true, passive: true });

  return () => idleTime(start);
}
