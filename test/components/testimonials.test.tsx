// @vitest-environment happy-dom
import { act } from "react";
import { hydrateRoot, type Root } from "react-dom/client";
import { renderToString } from "react-dom/server";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { SKELETON_MS, Testimonials } from "~/components/Testimonials";

/**
 * The testimonials' skeletons (decision 029) as hydration meets them (decision 036): which cards
 * the visitor has seen comes from the observer's first report, never from reading the layout while
 * React hydrates (a forced layout of a part not rendered yet). The frames: test/e2e/testimonials.test.ts.
 */

class FakeObserver {
  static all: FakeObserver[] = [];
  targets = new Set<Element>();
  constructor(private readonly callback: IntersectionObserverCallback) {
    FakeObserver.all.push(this);
  }
  observe(target: Element) {
    this.targets.add(target);
  }
  unobserve(target: Element) {
    this.targets.delete(target);
  }
  disconnect() {
    this.targets.clear();
  }
  /** Reports the targets still observed (those `only` keeps), each intersecting as `inView` says. */
  report(inView: (target: Element) => boolean, only: (target: Element) => boolean = () => true) {
    const entries = Array.from(this.targets)
      .filter(only)
      .map((target) => ({ target, isIntersecting: inView(target) }));
    if (entries.length > 0) this.callback(entries as unknown as IntersectionObserverEntry[], this as never);
  }
}

let root: Root | null = null;
let layoutReads = 0;

beforeEach(() => {
  FakeObserver.all = [];
  layoutReads = 0;
  vi.stubGlobal("IntersectionObserver", FakeObserver);
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
  vi.spyOn(Element.prototype, "getBoundingClientRect").mockImplementation(() => {
    layoutReads += 1;
    return new DOMRect();
  });
  document.body.innerHTML = `<div id="root">${renderToString(<Testimonials />)}</div>`;
});

afterEach(() => {
  act(() => root?.unmount());
  root = null;
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

function hydrate() {
  act(() => {
    root = hydrateRoot(document.getElementById("root")!, <Testimonials />);
  });
}

const section = () => document.getElementById("testimonials")!;
const cards = () => Array.from(section().querySelectorAll("[data-testimonial]"));
const skeletons = () => section().querySelectorAll("[data-skeleton]").length;
const pulsing = () => section().querySelectorAll("[data-skeleton] .animate-skeleton").length;
const observer = () => FakeObserver.all.at(-1)!;

describe("testimonials: the skeletons from hydration on", () => {
  it("hydration reads no layout and covers nothing until the observer's first report", () => {
    hydrate();
    expect(layoutReads).toBe(0);
    expect(skeletons()).toBe(0);
    expect(cards()).toHaveLength(6);
    expect(observer().targets.size).toBe(7); // the six cards and the section
  });

  it("the cards off screen in the first report are covered within the report's task, still until the section enters, and show 1 s after", () => {
    vi.useFakeTimers();
    hydrate();
    const [first] = cards();
    // Not in act(): the report's own task must leave the skeletons in the DOM (flushSync).
    const actEnvironment = globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean };
    actEnvironment.IS_REACT_ACT_ENVIRONMENT = false;
    observer().report((target) => target === first);
    actEnvironment.IS_REACT_ACT_ENVIRONMENT = true;
    expect(skeletons()).toBe(5);
    expect(layoutReads).toBe(0);
    expect(pulsing(), "skeletons off screen pulse").toBe(0);

    act(() => observer().report((target) => target === section()));
    expect(skeletons()).toBe(5);
    expect(pulsing()).toBeGreaterThan(0);
    // The spec's 1000 ms, to the millisecond (the browser test checks the order on a real page).
    expect(SKELETON_MS).toBe(1000);
    act(() => vi.advanceTimersByTime(SKELETON_MS - 1));
    expect(skeletons()).toBe(5);
    act(() => vi.advanceTimersByTime(1));
    expect(skeletons()).toBe(0);
  });

  it("a section in view reported before the cards still starts the one-second wait once the cards have reported", () => {
    vi.useFakeTimers();
    hydrate();
    const [first] = cards();
    const isSection = (target: Element) => target === section();
    act(() => observer().report(() => true, isSection));
    act(() =>
      observer().report(
        (target) => target === first,
        (target) => !isSection(target),
      ),
    );
    expect(skeletons()).toBe(5);
    act(() => vi.advanceTimersByTime(SKELETON_MS));
    expect(skeletons()).toBe(0);
  });

  it("cards all on screen in the first report are never covered, and the observer stops", () => {
    hydrate();
    act(() => observer().report(() => true));
    expect(skeletons()).toBe(0);
    expect(observer().targets.size).toBe(0);
  });
});
