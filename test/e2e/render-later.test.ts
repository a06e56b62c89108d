import type { BrowserContextOptions, Page } from "playwright-core";
import { expect, it } from "vitest";

import { LATER_PARTS } from "~/lib/document/render-later";

import { describeBrowser, PHONE, SIZES, useStack } from "./support/browser";
import {
  expectLandedOn,
  submitButton,
  toast,
  twoFrames,
  waitForHydration,
  waitForScrollToSettle,
} from "./support/page";
import { SUCCESS, uniqueContact } from "./support/spec-texts";

/**
 * A cheaper first frame (decision 036): with JavaScript, the parts after the hero render only in view
 * until the loader renders each in idle time. With idle time taken away (estimated heights), nothing
 * the visitor does may depend on an estimate (docs/performance.md).
 */

/** The browser is never idle: the later parts stay as the first frame left them. */
async function neverIdle(page: Page): Promise<void> {
  await page.addInitScript(() => {
    window.requestIdleCallback = () => 0;
  });
}

/** What the page does, as it happens, in `window.trail`: for a failure to tell. */
async function recordTrail(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const trail: unknown[] = [];
    Object.assign(window, { trail });
    const note = (event: string, detail = "") =>
      trail.push([Math.round(performance.now()), event, Math.round(window.scrollY), detail]);
    const describe = (target: EventTarget | null) =>
      target instanceof Element ? `${target.tagName}${target.id ? `#${target.id}` : ""}` : String(target);
    for (const type of ["scroll", "scrollend", "pointerdown", "click", "focusin", "hashchange"])
      window.addEventListener(type, (event) => note(type, describe(event.target)), true);
    // Changes to the document after load only (parsing would fill the trail with every node).
    window.addEventListener("load", () =>
      new MutationObserver((records) => {
        for (const record of records)
          if (record.type === "attributes")
            note(`attribute ${record.attributeName}`, describe(record.target));
          else
            note(
              "children",
              `${describe(record.target)} +${record.addedNodes.length} -${record.removedNodes.length}`,
            );
      }).observe(document, {
        subtree: true,
        childList: true,
        attributes: true,
        attributeFilter: ["style", "data-smooth-scroll"],
      }),
    );
  });
}

/** How each later part is rendered now: `auto` (only in view, estimated otherwise) or `visible`. */
function partStates(page: Page): Promise<string[]> {
  return page.evaluate(
    (selector) =>
      Array.from(document.querySelectorAll(selector)).map((part) => getComputedStyle(part).contentVisibility),
    LATER_PARTS,
  );
}

describeBrowser("the parts after the hero, rendered later", () => {
  const stack = useStack();

  async function openUnrendered(
    options: BrowserContextOptions,
    path = "/",
    { trail = false } = {},
  ): Promise<Page> {
    return stack.page(options, {
      path,
      hydrate: false,
      before: async (page) => {
        await neverIdle(page);
        if (trail) await recordTrail(page);
      },
    });
  }

  it("phone: without any interaction, every part is rendered for good once the browser is idle after load (what axe and a screen reader then read), and the message counter can be read", async () => {
    const page = await stack.page(PHONE, { hydrate: false });
    const states = await partStates(page);
    expect(states.length).toBe(10);
    // Chromium leaves a part it skips out of the accessibility tree: until it is rendered, a screen
    // reader finds nothing of it.
    const messageFields = async () => {
      const { nodes } = (await cdp.send("Accessibility.getFullAXTree")) as {
        nodes: { role?: { value?: string }; description?: { value?: string } }[];
      };
      return nodes.filter(
        (node) => node.role?.value === "textbox" && node.description?.value?.includes("/2000"),
      ).length;
    };
    const cdp = await page.context().newCDPSession(page);
    await expect.poll(() => partStates(page)).toEqual(states.map(() => "visible"));
    // The message field, found without scrolling, described by its counter, which can be read
    // (its part is rendered in idle time, not at the first interaction).
    expect(await messageFields()).toBe(1);
    await expect.poll(() => page.getByTestId("contact-message-count").innerText()).toBe("0/2000");
  });

  it("without JavaScript, every part is rendered at once, as before", async () => {
    const page = await stack.page({ ...PHONE, javaScriptEnabled: false });
    expect(await partStates(page)).toEqual(Array.from({ length: 10 }, () => "visible"));
  });

  for (const { name, options } of SIZES) {
    it(`${name}: before they are rendered, a footer link lands on its section (every part is rendered before the browser scrolls)`, async () => {
      const page = await openUnrendered(options, "/", { trail: true });
      expect(await partStates(page)).toContain("auto");
      await page.evaluate(() => window.scrollTo({ top: document.body.scrollHeight, behavior: "instant" }));
      await waitForScrollToSettle(page);
      await page.locator("footer").last().getByRole("link", { name: "Testimonials", exact: true }).click();
      // Should the smooth scroll stop short (docs/testing.md), the failure says what the page did.
      await expectLandedOn(page, "#testimonials").catch(async (error: Error) => {
        const trail = await page.evaluate(() => (window as unknown as { trail: unknown[] }).trail);
        error.message += `\nwhat the page did (ms since load, event, scrollY, detail): ${JSON.stringify(trail)}`;
        throw error;
      });
      expect(new Set(await partStates(page))).toEqual(new Set(["visible"]));
    });
  }

  it("phone: opening at a fragment lands on it, with every part rendered", async () => {
    const page = await openUnrendered(PHONE, "/#faq");
    await expectLandedOn(page, "#faq");
    expect(new Set(await partStates(page))).toEqual(new Set(["visible"]));
  });

  for (const { name, options } of SIZES)
    it(`${name}: a reload shows the same content where the reader left it`, async () => {
      const page = await openUnrendered(options);
      await page.evaluate(() => window.scrollTo({ top: 4000, behavior: "instant" }));
      await waitForScrollToSettle(page);
      // What the reader sees: the element at the centre of the viewport (its path from <body>) and
      // where its top is, once the parts in view have rendered (a frame or two after the scroll).
      const atCentre = () =>
        page.evaluate(() => {
          let element = document.elementFromPoint(window.innerWidth / 2, window.innerHeight / 2)!;
          const top = Math.round(element.getBoundingClientRect().top);
          const steps: string[] = [];
          for (; element !== document.body; element = element.parentElement!)
            steps.unshift(
              `${element.tagName}:nth-child(${Array.from(element.parentElement!.children).indexOf(element) + 1})`,
            );
          return { path: `body > ${steps.join(" > ")}`, top };
        });
      let before = await atCentre();
      for (let frames = 0; frames < 20; frames++) {
        await twoFrames(page);
        const now = await atCentre();
        if (now.path === before.path && now.top === before.top) break;
        before = now;
      }
      const topOfBefore = () =>
        page.evaluate(
          (path) => Math.round(document.querySelector(path)!.getBoundingClientRect().top),
          before.path,
        );
      await page.context().addInitScript(() => {
        const positions: number[] = [];
        Object.assign(window, { scrollPositions: positions });
        window.addEventListener("scroll", () => positions.push(Math.round(window.scrollY)), true);
      });
      await page.reload({ waitUntil: "load" });
      // The same content where the reader left it (within a line: the parts above may have been
      // estimated before). A busy browser restores the position after the load event: wait for it.
      await expect
        .poll(async () => Math.abs((await topOfBefore()) - before.top), { timeout: 10_000 })
        .toBeLessThanOrEqual(24);
      await waitForScrollToSettle(page);
      expect(Math.abs((await topOfBefore()) - before.top)).toBeLessThanOrEqual(24);
      // And at once: no glide down from the top (smooth-scroll.ts), which passes through dozens of
      // positions. A position restored during parsing can move once or twice more as the parts
      // render (scroll anchoring keeps the content where it is), so two other positions are allowed.
      const positions = await page.evaluate(
        () => (window as unknown as { scrollPositions: number[] }).scrollPositions,
      );
      const final = await page.evaluate(() => Math.round(window.scrollY));
      expect(
        positions.filter((y) => y !== final).length,
        `scroll positions ${positions.join(", ")}`,
      ).toBeLessThanOrEqual(2);
    });

  // A tap on a FAQ question before they are rendered opens it: enhance-on-intent.test.ts (its
  // first test, where idle time never comes either).
  it("phone: before they are rendered, the toast of a submission is in view (fixed to the viewport, not to its part)", async () => {
    const page = await openUnrendered(PHONE);
    // A key press or focus inside a part renders every part (render-later.ts): the form is filled as
    // the browser's autofill fills it, and a tap on the hero starts the enhancement.
    await page.mouse.click(4, 200);
    await waitForHydration(page);
    await page.evaluate((values) => {
      for (const [name, value] of Object.entries(values)) {
        const field = document.querySelector<HTMLInputElement>(`#contact [name="${name}"]`)!;
        field.value = value;
        field.dispatchEvent(new Event("input", { bubbles: true }));
      }
    }, uniqueContact());
    expect(await partStates(page)).toContain("auto");
    await submitButton(page).click();
    const success = toast(page, SUCCESS.title);
    // A limit for a toast that never comes, not a measure of speed.
    await expect.poll(() => success.isVisible(), { timeout: 15_000 }).toBe(true);
    const box = await success.boundingBox();
    const viewport = page.viewportSize()!;
    expect(box!.y + box!.height).toBeLessThanOrEqual(viewport.height);
    expect(box!.y).toBeGreaterThanOrEqual(0);
  });

  // Nothing shifts while the loader renders them: testimonials.test.ts (CLS 0 from navigation on).
});
