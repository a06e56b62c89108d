// @vitest-environment happy-dom
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

import { HELD_SCRIPTS_ID, INTENT_EVENTS, NO_PAINT_FALLBACK_MS } from "~/lib/document/paint-first";

import { compilePaintFirstLoader } from "../../../scripts/bundle.mjs";

/**
 * The inline loader of decisions 022 and 036, exactly as the build compiles it and the server inlines
 * it, run against a document shaped like the one the server sends.
 */
const PRELOADS = ["/build/entry.js", "/build/_shared/react.js", "/build/root.js"];
// Leaves first, as the build writes it: one module this document does not preload (another route's).
const ORDER = ["/build/_shared/react.js", "/build/other-route.js", "/build/root.js"];
const BOOTSTRAP = 'import "/build/entry.js";/* the Remix bootstrap */';

let loaderSource = "";
let loaderWithoutOrder = "";
beforeAll(async () => {
  loaderSource = await compilePaintFirstLoader(ORDER);
  loaderWithoutOrder = await compilePaintFirstLoader();
});

function serverDocument() {
  document.head.innerHTML = "";
  const held = JSON.stringify({ preloads: PRELOADS, module: BOOTSTRAP }).replace(/</g, "\\u003c");
  document.body.innerHTML =
    `<main id="main"><h1>Hello</h1></main>` +
    `<script id="context">/* window.__remixContext */</script>` +
    `<script type="application/json" id="${HELD_SCRIPTS_ID}">${held}</script>` +
    `<p id="after"></p>`;
}

function state() {
  const elements: string[] = [];
  for (
    let node = document.querySelector("main")!.nextElementSibling;
    node?.id !== "after";
    node = node!.nextElementSibling
  ) {
    if (node instanceof HTMLLinkElement) elements.push(`link ${node.rel} ${node.getAttribute("href")}`);
    else if (node instanceof HTMLScriptElement)
      elements.push(
        `script#${node.id} ${node.type || "classic"}${node.async ? " async" : ""} ${node.textContent}`,
      );
  }
  return elements;
}

const CONTEXT = "script#context classic /* window.__remixContext */";
const HELD = [
  CONTEXT,
  `script#${HELD_SCRIPTS_ID} application/json ${JSON.stringify({ preloads: PRELOADS, module: BOOTSTRAP })}`,
];
const PRELOADED = [...PRELOADS.map((href) => `link modulepreload ${href}`), ...HELD];
const LIVE = [
  ...PRELOADS.map((href) => `link modulepreload ${href}`),
  CONTEXT,
  `script# module async ${BOOTSTRAP}`,
];

function fakePaintTiming() {
  const observers: { callback: PerformanceObserverCallback; observer: { disconnect(): void } }[] = [];
  class FakeObserver {
    static supportedEntryTypes = ["paint", "resource"];
    disconnected = false;
    constructor(private readonly callback: PerformanceObserverCallback) {}
    observe() {
      observers.push({ callback: this.callback, observer: this });
    }
    disconnect() {
      this.disconnected = true;
    }
  }
  vi.stubGlobal("PerformanceObserver", FakeObserver);
  return {
    paint(name: string) {
      for (const { callback, observer } of observers) {
        if ((observer as FakeObserver).disconnected) continue;
        const entries = { getEntriesByName: (wanted: string) => (wanted === name ? [{ name }] : []) };
        callback(entries as unknown as PerformanceObserverEntryList, observer as PerformanceObserver);
      }
    },
  };
}

function fakeIdle() {
  const callbacks: IdleRequestCallback[] = [];
  vi.stubGlobal("requestIdleCallback", (callback: IdleRequestCallback) => callbacks.push(callback));
  return {
    pending: () => callbacks.length,
    /** One idle period: runs the callbacks queued so far. */
    idle() {
      for (const callback of callbacks.splice(0)) callback({ didTimeout: false, timeRemaining: () => 50 });
    },
  };
}

/** The module scripts the loader adds to <head>, kept out of the document: happy-dom would fetch them. */
function fakeModuleScripts() {
  const added: HTMLScriptElement[] = [];
  vi.spyOn(document.head, "append").mockImplementation((...nodes) => {
    added.push(...(nodes as HTMLScriptElement[]));
  });
  return {
    srcs: () => added.map((script) => `${script.type} ${script.getAttribute("src")}`),
    /** The last one has been evaluated. */
    run() {
      const script = added.at(-1)!;
      script.onload?.(new Event("load"));
    },
  };
}

let loaded = false;
function pageLoads() {
  loaded = true;
  window.dispatchEvent(new Event("load"));
}

const runLoader = (source = loaderSource) => new Function(source)();

describe("the paint-first loader", () => {
  it("is one small classic script that can sit inside a <script> element", () => {
    expect(loaderSource.length).toBeGreaterThan(200);
    // Every byte of it (render-later.ts and smooth-scroll.ts included) is in every document.
    expect(loaderWithoutOrder.length).toBeLessThan(2850);
    expect(loaderSource).not.toMatch(/<\/script|<!--|\bimport\b|\bexport\b/);
  });

  // Each test's loader listens on the one window of this file: its listeners go with the test.
  const listeners: Parameters<typeof window.addEventListener>[] = [];
  beforeEach(() => {
    vi.useFakeTimers();
    serverDocument();
    loaded = false;
    vi.spyOn(document, "readyState", "get").mockImplementation(() => (loaded ? "complete" : "loading"));
    const add = window.addEventListener.bind(window);
    vi.spyOn(window, "addEventListener").mockImplementation((...args) => {
      listeners.push(args);
      add(...args);
    });
  });
  afterEach(() => {
    vi.restoreAllMocks();
    for (const [type, listener, options] of listeners.splice(0))
      window.removeEventListener(type, listener, options);
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it("waits for the load event, the first contentful paint and idle time, then works one step per idle period", () => {
    const timing = fakePaintTiming();
    const idle = fakeIdle();
    const modules = fakeModuleScripts();
    runLoader();
    timing.paint("first-contentful-paint");
    vi.runAllTimers();
    expect(idle.pending()).toBe(0);
    pageLoads();
    expect(state()).toEqual(HELD);

    idle.idle(); // the start
    expect(state()).toEqual(HELD);
    idle.idle(); // the first preload
    expect(state()).toEqual([PRELOADED[0], ...HELD]);
    idle.idle();
    idle.idle();
    expect(state()).toEqual(PRELOADED);
    expect(modules.srcs()).toEqual([]);

    // Then the preloaded modules, leaves first, each only once the last has run.
    idle.idle();
    expect(modules.srcs()).toEqual(["module /build/_shared/react.js"]);
    idle.idle();
    expect(modules.srcs()).toEqual(["module /build/_shared/react.js"]);
    modules.run();
    idle.idle();
    expect(modules.srcs()).toEqual(["module /build/_shared/react.js", "module /build/root.js"]);
    modules.run();
    expect(state()).toEqual(PRELOADED);

    // Last, the bootstrap in the data block's place: what Remix wrote, where it wrote it.
    idle.idle();
    expect(state()).toEqual(LIVE);
    expect(document.getElementById(HELD_SCRIPTS_ID)).toBeNull();
    vi.runAllTimers();
    idle.idle();
    expect(state()).toEqual(LIVE);
  });

  for (const type of INTENT_EVENTS) {
    it(`starts at the visitor's first ${type}, before any paint or load, and no longer waits for idle time`, () => {
      fakePaintTiming();
      const idle = fakeIdle();
      const modules = fakeModuleScripts();
      runLoader();
      window.dispatchEvent(new Event(type));
      vi.advanceTimersToNextTimer(); // the task after the interaction: the first preload
      expect(state()).toEqual([PRELOADED[0], ...HELD]);
      vi.advanceTimersToNextTimer();
      vi.advanceTimersToNextTimer();
      expect(state()).toEqual(PRELOADED);
      vi.advanceTimersToNextTimer();
      modules.run();
      vi.advanceTimersToNextTimer();
      modules.run();
      vi.advanceTimersToNextTimer();
      expect(state()).toEqual(LIVE);
      expect(idle.pending()).toBe(0);
    });
  }

  it("runs a step that waits for idle time in the next task once the visitor interacts", () => {
    const timing = fakePaintTiming();
    const idle = fakeIdle();
    fakeModuleScripts();
    runLoader();
    timing.paint("first-contentful-paint");
    pageLoads();
    idle.idle(); // the start: the first preload now waits for idle time
    expect(state()).toEqual(HELD);
    document.body.dispatchEvent(new Event("keydown", { bubbles: true }));
    vi.advanceTimersToNextTimer();
    expect(state()).toEqual([PRELOADED[0], ...HELD]);
    // The idle period that comes later does not run it again.
    idle.idle();
    vi.advanceTimersToNextTimer();
    vi.advanceTimersToNextTimer();
    expect(state()).toEqual(PRELOADED);
  });

  it("enhances once, however often the visitor interacts or the paint is reported", () => {
    const timing = fakePaintTiming();
    const idle = fakeIdle();
    const modules = fakeModuleScripts();
    runLoader();
    for (const type of [...INTENT_EVENTS, ...INTENT_EVENTS]) window.dispatchEvent(new Event(type));
    timing.paint("first-contentful-paint");
    timing.paint("first-contentful-paint");
    pageLoads();
    for (let step = 0; step < 10; step += 1) {
      vi.runAllTimers();
      idle.idle();
      modules.run();
    }
    expect(state()).toEqual(LIVE);
    expect(modules.srcs()).toEqual(["module /build/_shared/react.js", "module /build/root.js"]);
  });

  it("without an evaluation order (development), leaves every module to the bootstrap", () => {
    fakePaintTiming();
    const modules = fakeModuleScripts();
    runLoader(loaderWithoutOrder);
    window.dispatchEvent(new Event("pointerdown"));
    vi.runAllTimers();
    expect(state()).toEqual(LIVE);
    expect(modules.srcs()).toEqual([]);
  });

  it("without requestIdleCallback (WebKit), takes the task after the next frame as idle time", () => {
    const timing = fakePaintTiming();
    vi.stubGlobal("requestIdleCallback", undefined);
    const frames: FrameRequestCallback[] = [];
    vi.stubGlobal("requestAnimationFrame", (callback: FrameRequestCallback) => frames.push(callback));
    runLoader(loaderWithoutOrder);
    timing.paint("first-contentful-paint");
    pageLoads();
    vi.runAllTimers();
    expect(state()).toEqual(HELD);
    // Idle time for the later parts' rendering and for the enhancement.
    expect(frames).toHaveLength(2);
    for (const frame of frames.splice(0)) frame(0);
    vi.runAllTimers(); // the start
    expect(state()).toEqual(HELD);
    frames.shift()!(0);
    vi.runAllTimers();
    expect(state()).toEqual([PRELOADED[0], ...HELD]);
  });

  it(`counts the page as painted ${NO_PAINT_FALLBACK_MS} ms after the load event if no contentful paint was ever reported`, () => {
    fakePaintTiming();
    const idle = fakeIdle();
    runLoader();
    pageLoads();
    vi.advanceTimersByTime(NO_PAINT_FALLBACK_MS - 100);
    expect(idle.pending()).toBe(0);
    vi.advanceTimersByTime(100);
    expect(idle.pending()).toBe(2);
  });

  it("without paint timing, counts the next frame as the first paint", () => {
    vi.stubGlobal("PerformanceObserver", undefined);
    const idle = fakeIdle();
    const frames: FrameRequestCallback[] = [];
    vi.stubGlobal("requestAnimationFrame", (callback: FrameRequestCallback) => frames.push(callback));
    runLoader();
    pageLoads();
    expect(idle.pending()).toBe(0);
    expect(frames).toHaveLength(1);
    frames[0]!(0);
    expect(idle.pending()).toBe(2);
  });
});
