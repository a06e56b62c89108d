// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from "vitest";

import { INTENT_EVENTS } from "~/lib/document/paint-first";
import { SMOOTH_SCROLL_ATTRIBUTE, smoothScrollOnIntent } from "~/lib/document/smooth-scroll";

describe("smooth scrolling on intent", () => {
  const smooth = () => document.documentElement.hasAttribute(SMOOTH_SCROLL_ATTRIBUTE);
  afterEach(() => document.documentElement.removeAttribute(SMOOTH_SCROLL_ATTRIBUTE));

  it("is off until the visitor acts: the browser's own scrolls (a restored position, a fragment) are instant", () => {
    smoothScrollOnIntent();
    window.dispatchEvent(new Event("scroll"));
    window.dispatchEvent(new Event("load"));
    expect(smooth()).toBe(false);
  });

  for (const type of INTENT_EVENTS)
    it(`turns on at the first ${type}, before the page's own handlers and the browser act on it`, () => {
      smoothScrollOnIntent();
      let seenByThePage: boolean | null = null;
      const target = document.createElement("a");
      document.body.append(target);
      target.addEventListener(type, () => (seenByThePage = smooth()));
      target.dispatchEvent(new Event(type, { bubbles: true }));
      expect(seenByThePage).toBe(true);
      target.remove();
    });
});
