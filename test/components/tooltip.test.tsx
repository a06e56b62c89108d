// @vitest-environment happy-dom
import { act } from "react";
import { createRoot, type Root } from "react-dom/client";
import { afterEach, beforeEach, expect, it, vi } from "vitest";

import { Tooltip, TooltipGroup } from "~/components/Tooltip";

/**
 * The tooltip's delay (the spec: a hovered icon-only control shows its label after 700 ms) on a
 * fake clock, to the millisecond. What a visitor sees of it in a browser is test/e2e/tooltips.test.ts.
 */

let root: Root | null = null;

beforeEach(() => {
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
  document.body.innerHTML = `<div id="root"></div>`;
});

afterEach(() => {
  act(() => root?.unmount());
  root = null;
  vi.useRealTimers();
});

const tooltips = () => Array.from(document.querySelectorAll("[role=tooltip]")).map((el) => el.textContent);

function pointer(type: string, target: Element): void {
  target.dispatchEvent(new PointerEvent(type, { bubbles: true, pointerType: "mouse" }));
}

it("a hovered control shows its label 700 ms after the pointer rests on it, not a millisecond sooner", async () => {
  root = createRoot(document.getElementById("root")!);
  act(() =>
    root!.render(
      <TooltipGroup>
        <Tooltip label="Follow us on LinkedIn">
          <a href="https://example.com/" aria-label="Follow us on LinkedIn" data-tooltip-trigger="">
            in
          </a>
        </Tooltip>
      </TooltipGroup>,
    ),
  );
  // The pointer reaching the group loads Radix, which takes the control over.
  pointer("pointerover", document.querySelector("a")!);
  await vi.waitFor(() => expect(document.querySelector("a")!.hasAttribute("data-state")).toBe(true));

  vi.useFakeTimers();
  const link = document.querySelector("a")!;
  act(() => pointer("pointermove", link));
  act(() => vi.advanceTimersByTime(699));
  expect(tooltips()).toEqual([]);
  act(() => vi.advanceTimersByTime(1));
  expect(tooltips()).toEqual(["Follow us on LinkedIn"]);
});
