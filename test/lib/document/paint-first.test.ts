// @vitest-environment happy-dom
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

import { HELD_SCRIPTS_ID } from "~/lib/document/paint-first";

import { compilePaintFirstLoader } from "../../../scripts/bundle.mjs";

/**
 * The inline loader of decision 022, exactly as the build compiles it and the server inlines it,
 * run against a document shaped like the one the server sends: Remix's context script, the JSON
 * data block holding the preloads and the bootstrap, and the loader after them.
 */
let loaderSource = "";
beforeAll(async () => {
  loaderSource = await compilePaintFirstLoader();
});
const PRELOADS = ["/build/entry.js", "/build/_shared/react.js", "/build/root.js"];
const BOOTSTRAP = 'import "/build/entry.js";/* the Remix bootstrap */';

function serverDocument() {
  document.head.innerHTML = "";
  const held = JSON.stringify({ preloads: PRELOADS, module: BOOTSTRAP }).replace(/</g, "\\u003c");
  document.body.innerHTML =
    `<main id="main"><h1>Hello</h1></main>` +
    `<script id="context">/* window.__remixContext */</script>` +
    `<script type="application/json" id="${HELD_SCRIPTS_ID}">${held}</script>` +
    `<p id="after"></p>`;
}

/** What the page looks like now: the elements between the heading and the paragraph, in order. */
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
const LIVE = [
  ...PRELOADS.map((href) => `link modulepreload ${href}`),
  CONTEXT,
  `script# module async ${BOOTSTRAP}`,
];

/** A PerformanceObserver that reports what the test tells it to. */
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

const runLoader = () => new Function(loaderSource)();

describe("the paint-first loader", () => {
  it("is one small classic script that can sit inside a <script> element", () => {
    expect(loaderSource.length).toBeGreaterThan(200);
    expect(loaderSource.length).toBeLessThan(1500);
    expect(loaderSource).not.toMatch(/<\/script|<!--|\bimport\b|\bexport\b/);
  });

  beforeEach(() => {
    vi.useFakeTimers();
    serverDocument();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it("waits for the first contentful paint, then puts every preload and the module script where Remix wrote them", () => {
    const timing = fakePaintTiming();
    runLoader();
    vi.runAllTimers();
    expect(state()).toEqual(HELD);

    timing.paint("first-paint");
    vi.runAllTimers();
    expect(state()).toEqual(HELD);

    timing.paint("first-contentful-paint");
    vi.runAllTimers();
    expect(state()).toEqual(LIVE);
    expect(document.getElementById(HELD_SCRIPTS_ID)).toBeNull();
  });

  it("does its work one element per task, preloads first", () => {
    const timing = fakePaintTiming();
    runLoader();
    timing.paint("first-contentful-paint");
    vi.advanceTimersToNextTimer(); // the task after the paint entry: the first preload
    expect(state()).toEqual([LIVE[0], ...HELD]);
    vi.advanceTimersToNextTimer();
    vi.advanceTimersToNextTimer();
    expect(state()).toEqual([...LIVE.slice(0, PRELOADS.length), ...HELD]);
    vi.advanceTimersToNextTimer();
    expect(state()).toEqual(LIVE);
  });

  it("enhances once, however often the paint is reported", () => {
    const timing = fakePaintTiming();
    runLoader();
    timing.paint("first-contentful-paint");
    timing.paint("first-contentful-paint");
    vi.runAllTimers();
    expect(state()).toEqual(LIVE);
    expect(document.querySelectorAll('script[type="module"]')).toHaveLength(1);
  });

  it("enhances 3 s after the load event if no contentful paint was ever reported", () => {
    fakePaintTiming();
    runLoader();
    window.dispatchEvent(new Event("load"));
    vi.advanceTimersByTime(2900);
    expect(state()).toEqual(HELD);
    vi.runAllTimers();
    expect(state()).toEqual(LIVE);
  });

  it("without paint timing, enhances after the next frame", () => {
    vi.stubGlobal("PerformanceObserver", undefined);
    const frames: FrameRequestCallback[] = [];
    vi.stubGlobal("requestAnimationFrame", (callback: FrameRequestCallback) => frames.push(callback));
    runLoader();
    vi.runAllTimers();
    expect(state()).toEqual(HELD);
    expect(frames).toHaveLength(1);
    frames[0]!(0);
    vi.runAllTimers();
    expect(state()).toEqual(LIVE);
  });
});
