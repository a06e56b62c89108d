// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { HELD_MODULE_TYPE, HELD_PRELOAD_REL, paintFirstLoaderSource } from "~/lib/enhancement/paint-first";

/**
 * The inline loader of decision 022, run against a document shaped like the one the server
 * streams: held preloads, the held module script, and the loader after them.
 */
const PRELOADS = ["/build/entry.js", "/build/_shared/react.js", "/build/root.js"];

function serverDocument() {
  document.head.innerHTML = PRELOADS.map(
    (href) => `<link rel="${HELD_PRELOAD_REL}" nonce="n0nce" href="${href}">`,
  ).join("");
  document.body.innerHTML =
    `<main id="main"><h1>Hello</h1></main>` +
    `<script nonce="n0nce" type="${HELD_MODULE_TYPE}" async="">/* the Remix bootstrap */</script>` +
    `<p id="after"></p>`;
}

/** What the page looks like now: each preload's rel, and the script in the held one's place. */
function state() {
  const script = document.getElementById("after")!.previousElementSibling as HTMLScriptElement;
  return {
    rels: Array.from(document.querySelectorAll("link"), (link) => link.rel),
    script: { tag: script.tagName, type: script.type, text: script.textContent, async: script.async },
  };
}

const HELD = {
  rels: PRELOADS.map(() => HELD_PRELOAD_REL),
  script: { tag: "SCRIPT", type: HELD_MODULE_TYPE, text: "/* the Remix bootstrap */", async: true },
};
const LIVE = {
  rels: PRELOADS.map(() => "modulepreload"),
  script: { tag: "SCRIPT", type: "module", text: "/* the Remix bootstrap */", async: true },
};

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

const runLoader = () => new Function(paintFirstLoaderSource)();

describe("the paint-first loader", () => {
  beforeEach(() => {
    vi.useFakeTimers();
    serverDocument();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it("waits for the first contentful paint, then restores every preload and the module script in place", () => {
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
    expect(document.querySelectorAll("script")).toHaveLength(1);
  });

  it("does its work one element per task, preloads first", () => {
    const timing = fakePaintTiming();
    runLoader();
    timing.paint("first-contentful-paint");
    vi.advanceTimersToNextTimer(); // the task after the paint entry: the first preload
    expect(state().rels).toEqual(["modulepreload", ...PRELOADS.slice(1).map(() => HELD_PRELOAD_REL)]);
    vi.advanceTimersToNextTimer();
    vi.advanceTimersToNextTimer();
    expect(state()).toEqual({ ...HELD, rels: LIVE.rels });
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
