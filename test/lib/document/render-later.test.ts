// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { LATER_PARTS, renderLaterParts } from "~/lib/document/render-later";

/** The later parts' rendering (decision 036); the browser side is test/e2e/render-later.test.ts. */
function page() {
  document.body.innerHTML =
    '<header><a href="#two">Two</a></header>' +
    '<main id="main"><section id="hero"></section><section id="one"></section>' +
    '<section id="two"><h2 id="two-heading">Two</h2><form id="form"></form></section></main>' +
    '<footer><a id="footer-link" href="#two-heading">Two</a><a id="top" href="#hero">Top</a></footer>';
}

const parts = () =>
  Array.from(document.querySelectorAll<HTMLElement>(LATER_PARTS)).map(
    (part) => part.id || part.tagName.toLowerCase(),
  );
const shown = () =>
  Array.from(document.querySelectorAll<HTMLElement>(LATER_PARTS))
    .filter((part) => part.style.contentVisibility === "visible")
    .map((part) => part.id || part.tagName.toLowerCase());

/** Idle periods, frames and the first paint, each when the test says. */
function browser() {
  const idle: (() => void)[] = [];
  const frames: FrameRequestCallback[] = [];
  let paint: (() => void) | null = null;
  vi.stubGlobal("requestAnimationFrame", (callback: FrameRequestCallback) => frames.push(callback));
  return {
    start() {
      paint = renderLaterParts((step) => idle.push(step));
    },
    paint: () => paint?.(),
    idle: () => idle.splice(0).forEach((step) => step()),
    frame: () => frames.splice(0).forEach((frame) => frame(0)),
  };
}

describe("rendering the parts after the hero", () => {
  beforeEach(() => {
    page();
    history.replaceState(null, "", "/");
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it("are every section after the first, and the footer", () => {
    expect(parts()).toEqual(["one", "two", "footer"]);
  });

  it("renders one part per frame, each in idle time, from the first paint on", () => {
    const b = browser();
    b.start();
    b.idle();
    expect(shown()).toEqual([]);
    b.paint();
    b.idle();
    expect(shown()).toEqual(["one"]);
    b.idle(); // nothing until the frame that renders it has passed
    expect(shown()).toEqual(["one"]);
    b.frame();
    b.idle();
    expect(shown()).toEqual(["one", "two"]);
    b.frame();
    b.idle();
    expect(shown()).toEqual(["one", "two", "footer"]);
  });

  it("lays each part out in its idle step, so that the frame after it only paints", () => {
    const laidOut: string[] = [];
    vi.spyOn(HTMLElement.prototype, "offsetHeight", "get").mockImplementation(function (this: HTMLElement) {
      laidOut.push(`${this.id || this.tagName.toLowerCase()} ${this.style.contentVisibility}`);
      return 0;
    });
    const b = browser();
    b.start();
    b.paint();
    b.idle();
    expect(laidOut).toEqual(["one visible"]);
    b.frame();
    b.idle();
    expect(laidOut).toEqual(["one visible", "two visible"]);
  });

  it("renders every part at once before the browser follows a link into one of them", () => {
    const b = browser();
    b.start();
    b.paint();
    document.getElementById("top")!.click();
    expect(shown()).toEqual([]);
    document.getElementById("footer-link")!.click();
    expect(shown()).toEqual(["one", "two", "footer"]);
  });

  it("renders every part at once at the first key press, before the browser moves focus or scrolls", () => {
    browser().start();
    document.body.dispatchEvent(new KeyboardEvent("keydown", { key: "Tab", bubbles: true }));
    expect(shown()).toEqual(["one", "two", "footer"]);
  });

  it("renders every part at once when focus moves into one of them, and not before", () => {
    const b = browser();
    b.start();
    document.getElementById("hero")!.dispatchEvent(new FocusEvent("focusin", { bubbles: true }));
    expect(shown()).toEqual([]);
    document.getElementById("footer-link")!.dispatchEvent(new FocusEvent("focusin", { bubbles: true }));
    expect(shown()).toEqual(["one", "two", "footer"]);
  });

  it("renders every part at once when a form is submitted", () => {
    browser().start();
    document.getElementById("form")!.dispatchEvent(new Event("submit", { bubbles: true }));
    expect(shown()).toEqual(["one", "two", "footer"]);
  });

  it("renders every part at once when the page opens at a fragment, or as a reload or a return", () => {
    history.replaceState(null, "", "/#two");
    browser().start();
    expect(shown()).toEqual(["one", "two", "footer"]);

    page();
    history.replaceState(null, "", "/");
    for (const type of ["reload", "back_forward"]) {
      page();
      vi.spyOn(performance, "getEntriesByType").mockReturnValue([{ type } as unknown as PerformanceEntry]);
      browser().start();
      expect(shown(), type).toEqual(["one", "two", "footer"]);
    }
  });
});
