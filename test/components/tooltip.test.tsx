// @vitest-environment happy-dom
import { act } from "react";
import { createRoot, type Root } from "react-dom/client";
import { afterEach, beforeEach, expect, it, vi } from "vitest";

import * as tooltipModule from "~/components/Tooltip";

/**
 * The tooltip's 700 ms delay (the spec) on a fake clock, and the task Radix takes the controls over
 * in. What a visitor sees of it in a browser is test/e2e/tooltips.test.ts.
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

/** One icon-only link in a tooltip group, not yet taken over by Radix. */
function renderLink(label: string, { Tooltip, TooltipGroup } = tooltipModule): HTMLAnchorElement {
  root = createRoot(document.getElementById("root")!);
  act(() =>
    root!.render(
      <TooltipGroup>
        <Tooltip label={label}>
          <a href="https://example.com/" aria-label={label} data-tooltip-trigger="">
            in
          </a>
        </Tooltip>
      </TooltipGroup>,
    ),
  );
  return document.querySelector("a")!;
}

const takenOver = () =>
  vi.waitFor(() => expect(document.querySelector("a")!.hasAttribute("data-state")).toBe(true));

async function hoverUntilTakenOver(label: string): Promise<HTMLAnchorElement> {
  pointer("pointerover", renderLink(label));
  await vi.waitFor(() => expect(document.querySelector("a")!.hasAttribute("data-state")).toBe(true));
  return document.querySelector("a")!;
}

it("a hovered control shows its label 700 ms after the pointer rests on it, not a millisecond sooner", async () => {
  const link = await hoverUntilTakenOver("Follow us on LinkedIn");

  vi.useFakeTimers();
  act(() => pointer("pointermove", link));
  act(() => vi.advanceTimersByTime(699));
  expect(tooltips()).toEqual([]);
  act(() => vi.advanceTimersByTime(1));
  expect(tooltips()).toEqual(["Follow us on LinkedIn"]);
});

it("Radix takes the control over in the task that finds no pointer held, so no press can land on the control it replaces", async () => {
  // Each look for a held pointer queues a microtask: it runs when that look's task ends, before any
  // press (a task of its own) could, and records whether the control was taken over by then.
  const takenOverWhenTaskEnds: boolean[] = [];
  const matches = Element.prototype.matches;
  const spy = vi.spyOn(Element.prototype, "matches").mockImplementation(function (
    this: Element,
    selector: string,
  ) {
    if (selector === ":active")
      queueMicrotask(() =>
        takenOverWhenTaskEnds.push(document.querySelector("a")!.hasAttribute("data-state")),
      );
    return matches.call(this, selector);
  });
  try {
    await hoverUntilTakenOver("Email us");
    expect(takenOverWhenTaskEnds.at(-1)).toBe(true);
  } finally {
    spy.mockRestore();
  }
});

it("a control focused from the keyboard before Radix has loaded keeps the focus through the take-over and shows its label; one focused by a press does not", async () => {
  // A fresh copy of the component, whose Radix module no test has loaded yet.
  vi.resetModules();
  const fresh = await import("~/components/Tooltip");
  const link = renderLink("Follow us on X", fresh);
  act(() => link.focus());
  expect(link.hasAttribute("data-state"), "Radix not loaded when the focus came").toBe(false);
  await takenOver();
  expect(document.activeElement, "the focus on the control Radix made").toBe(document.querySelector("a"));
  await vi.waitFor(() => expect(tooltips()).toEqual(["Follow us on X"]));

  act(() => root?.unmount());
  const pressed = renderLink("Follow us on X", fresh);
  act(() => {
    pointer("pointerdown", pressed);
    pressed.focus();
  });
  await takenOver();
  expect(tooltips(), "no tooltip under the finger").toEqual([]);
});
