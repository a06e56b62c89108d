/**
 * Paint first, enhance on intent (decisions 022 and 036).
 *
 * Every section of the page works as plain HTML, so the browser has no reason to fetch, compile or
 * run ~100 KB of JavaScript while it shows the page. The server takes Remix's module preloads and
 * its module bootstrap out of the markup and keeps them in a JSON data block
 * (`holdScriptsUntilPaint` in `markup.server.ts`); the inline loader (`paint-first.inline.ts`,
 * compiled by the build, inserted by the server) calls `enhanceOnIntent`, which puts them back
 * when the visitor first asks for something (a pointer or finger down, a key, a focus) or when the
 * browser is idle after the page has loaded and painted, whichever comes first.
 *
 * The work is done in small steps, each in its own task, so that none of them blocks a tap: one
 * preload at a time, then the modules evaluated one by one, leaves first (the build gives the
 * order), then the bootstrap, which finds them evaluated and only hydrates (React hydrates in
 * slices of its own). Until the visitor asks, the steps run in idle time only; from their first
 * interaction on, in the next task.
 *
 * The preloads and the bootstrap go back where Remix wrote them (the preloads before the context
 * script, the bootstrap in the data block's place), so the DOM React hydrates is the one `<Scripts>`
 * rendered. The module scripts that evaluate a chunk early are created by this script (allowed by
 * the policy's `'strict-dynamic'`), sit at the end of `<head>`, where React tolerates extra
 * nodes, and are removed as soon as they have run.
 */
export const HELD_SCRIPTS_ID = "paint-first-scripts";

/** What the data block holds (JSON). */
export interface HeldScriptsData {
  preloads: string[];
  module: string;
}

/** The visitor's first interactions that ask for the enhancement at once. */
export const INTENT_EVENTS = ["pointerdown", "touchstart", "keydown", "focusin"] as const;

/**
 * The longest an idle step waits for the browser to be idle (`requestIdleCallback`'s timeout): a
 * page kept busy (an animation, another tab's work) still gets its enhancement.
 */
export const IDLE_TIMEOUT_MS = 1000;

/** If a browser lists paint timing but never reports a contentful paint: this long after `load`. */
export const NO_PAINT_FALLBACK_MS = 3000;

/** One step of the enhancement; it calls `done` when the next one may be scheduled. */
type Step = (done: () => void) => void;

/** Schedules a step: in idle time, or in the next task. */
type Pace = (step: () => void) => void;

const nextTask: Pace = (step) => {
  setTimeout(step, 0);
};

/**
 * In idle time. WebKit has no `requestIdleCallback`: there, the task after the next frame, when the
 * browser has just rendered and has nothing else queued for this frame.
 */
export const idleTime: Pace = (step) => {
  if (typeof requestIdleCallback === "function") requestIdleCallback(step, { timeout: IDLE_TIMEOUT_MS });
  else requestAnimationFrame(() => setTimeout(step, 0));
};

/** Runs the steps in order, each scheduled by `pace` once the previous one is done. */
function runSteps(steps: Step[], pace: Pace): void {
  const next = () => {
    const step = steps.shift();
    if (step) step(() => pace(next));
  };
  pace(next);
}

/**
 * Evaluates one already preloaded module on its own, in its own task: a module script created by
 * this script, removed once it has run (or failed: the bootstrap then reports the failure as before).
 */
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

/**
 * The steps that put the held preloads and bootstrap back: each preload, each module in
 * `evaluationOrder` that this document preloads, then the bootstrap.
 */
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

/** Calls `then` once the page has loaded and painted its first content (in a shown tab, soon after load). */
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

/**
 * Puts the held scripts back on the visitor's first interaction, or in idle time once the returned
 * function has been called (when the page has loaded and painted: `afterLoadAndFirstPaint`),
 * whichever comes first; once, and in steps of one task each.
 */
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
