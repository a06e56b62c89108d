// @vitest-environment happy-dom
import { hydrateRoot, type Root } from "react-dom/client";
import { renderToString } from "react-dom/server";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { Faq } from "~/components/Faq";

/**
 * The FAQ's swap from the server's native `<details>` to the accordion (decision 029) against a
 * tap that comes while it happens (issue 26). The browser side is test/e2e/faq.test.ts.
 */

/** The observer the FAQ uses to load the accordion as it nears the viewport, reporting on demand. */
class FakeObserver {
  static all: FakeObserver[] = [];
  constructor(private readonly callback: IntersectionObserverCallback) {
    FakeObserver.all.push(this);
  }
  targets: Element[] = [];
  observe(target: Element) {
    this.targets.push(target);
  }
  unobserve() {}
  disconnect() {
    this.targets = [];
  }
  reportInView() {
    const entries = this.targets.map((target) => ({ target, isIntersecting: true }));
    this.callback(entries as unknown as IntersectionObserverEntry[], this as never);
  }
}

const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));
let root: Root | null = null;

beforeEach(() => {
  FakeObserver.all = [];
  vi.stubGlobal("IntersectionObserver", FakeObserver);
  // The server's HTML, rendered here where `document` exists: React's warning that a layout effect
  // does nothing on the server is about this test's setup, not the page.
  const quiet = vi.spyOn(console, "error").mockImplementation(() => {});
  document.body.innerHTML = `<div id="root">${renderToString(<Faq />)}</div>`;
  quiet.mockRestore();
});

afterEach(() => {
  root?.unmount();
  root = null;
  vi.unstubAllGlobals();
});

describe("the FAQ's accordion taking over the native list", () => {
  it("keeps a question the visitor opened between the accordion's arrival and the swap", async () => {
    root = hydrateRoot(document.getElementById("root")!, <Faq />);
    for (let i = 0; i < 5; i++) await nextTask();
    expect(document.querySelector('details[data-faq-item="0"]')).not.toBeNull();

    // The section nears the viewport: the accordion's module is requested...
    FakeObserver.all.forEach((observer) => observer.reportInView());
    // ...and, the moment it has arrived (the FAQ's own continuation has run just before this
    // one), the visitor's tap on the first question lands on whatever is on screen then.
    await import("~/components/faq-accordion");
    const native = document.querySelector<HTMLDetailsElement>('details[data-faq-item="0"]');
    if (native) native.open = true;
    else document.querySelector<HTMLElement>('[data-faq-trigger="0"]')!.click();

    for (let i = 0; i < 5; i++) await nextTask();
    const trigger = document.querySelector<HTMLElement>('[data-faq-trigger="0"]');
    expect(trigger, "the accordion replaced the native list").not.toBeNull();
    expect(trigger!.getAttribute("aria-expanded")).toBe("true");
  });
});
