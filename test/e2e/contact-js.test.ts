import type { Page } from "playwright-core";
import { beforeEach, expect, it } from "vitest";

import { describeBrowser, DESKTOP, PHONE, useStack } from "./support/browser";
import {
  contactValues,
  countPosts,
  field,
  fillContact,
  submitButton,
  waitForFormAtRest,
  toast,
} from "./support/page";
import {
  type ContactValues,
  SEND_ERROR,
  SUBMIT_LABEL,
  SUBMITTING_LABEL,
  SUCCESS,
  uniqueContact,
  VALID_CONTACT,
  VALIDATION,
  VALIDATION_TITLE,
} from "./support/spec-texts";
import { contactRequest } from "../support/contact-request";

const EMPTY: ContactValues = contactRequest({});

describeBrowser("contact form with JavaScript", () => {
  const stack = useStack();

  beforeEach(() => {
    stack.fake.reset();
  });

  async function open(options = DESKTOP, before?: (page: Page) => Promise<void>): Promise<Page> {
    const page = await stack.page(options, { before });
    await page.locator("#contact").scrollIntoViewIfNeeded();
    return page;
  }

  const counterText = async (page: Page) => {
    const text = await page.locator("#contact form").first().innerText();
    return text.match(/(\d+)\s*\/\s*2,?000/)?.[1];
  };

  // The rules and their order: test/lib/contact/schema.test.ts. Here, that the page applies them:
  // one rule the browser's own e-mail check would let through, one that trims before it counts.
  // No two cases in a row share a message, so the toast that shows a case's message is its own.
  const invalidCases: [string, Partial<ContactValues>, string][] = [
    ["e-mail without a dot in the domain", { email: "jane@localhost" }, VALIDATION.email],
    ["message shorter than 10 characters once trimmed", { message: "  Too short  " }, VALIDATION.message],
  ];

  it(`validation: ${invalidCases.map(([label]) => label).join("; ")} → the toast names the rule, the values stay, nothing is sent`, async () => {
    const page = await open();
    const posts = countPosts(page);
    for (const [label, change, message] of invalidCases) {
      await fillContact(page, { ...VALID_CONTACT, ...change });
      await submitButton(page).click();
      const notice = toast(page, VALIDATION_TITLE).filter({ hasText: message });
      await expect.poll(() => notice.isVisible(), { message: label }).toBe(true);
      expect(await contactValues(page), label).toEqual({ ...VALID_CONTACT, ...change });
    }
    await waitForFormAtRest(page);
    expect(posts.count, "no request leaves the browser").toBe(0);
    expect(stack.fake.requests).toHaveLength(0);
  });

  it("the counter tracks the message length up to 2000; a valid submission shows the spinner and 'Sending Message...' while sending, then the success toast, empty fields and the counter at 0", async () => {
    const page = await open();
    expect(await counterText(page)).toBe("0");
    await field(page, "message").pressSequentially("Hello");
    await expect.poll(() => counterText(page)).toBe("5");
    await field(page, "message").press("Backspace");
    await expect.poll(() => counterText(page)).toBe("4");
    await field(page, "message").fill("x".repeat(2000));
    await expect.poll(() => counterText(page)).toBe("2000");
    await field(page, "message").press("End");
    await field(page, "message").pressSequentially("yz");
    expect((await field(page, "message").inputValue()).length).toBe(2000);
    expect(await counterText(page)).toBe("2000");

    stack.fake.setMode({ kind: "slow", delayMs: 1500 });
    const values = uniqueContact();
    await fillContact(page, values);
    const button = submitButton(page);
    expect((await button.innerText()).trim()).toBe(SUBMIT_LABEL);
    await button.click();

    await expect.poll(() => button.innerText()).toContain(SUBMITTING_LABEL);
    expect(await button.isDisabled()).toBe(true);
    const spinning = await button.evaluate((el) =>
      Array.from(el.querySelectorAll("*")).some((child) => getComputedStyle(child).animationName !== "none"),
    );
    expect(spinning, "an animated spinner inside the button").toBe(true);

    const notice = toast(page, SUCCESS.title);
    await expect.poll(() => notice.isVisible(), { timeout: 8000 }).toBe(true);
    expect(await notice.innerText()).toContain(SUCCESS.text);
    expect(await contactValues(page)).toEqual(EMPTY);
    expect(await counterText(page)).toBe("0");
    expect((await button.innerText()).trim()).toBe(SUBMIT_LABEL);
    expect(await button.isDisabled()).toBe(false);

    expect(stack.fake.requests).toHaveLength(1);
    expect(stack.fake.requests[0]!.json).toEqual(values);
  });

  it("phone: a failing function (500) shows the error toast clear of the submit button, keeps every value and logs the error; a new submission dismisses that toast while sending", async () => {
    stack.fake.setMode({ kind: "status", status: 500 });
    const page = await open(PHONE);
    const consoleErrors: string[] = [];
    page.on("console", (msg) => {
      if (msg.type() === "error") consoleErrors.push(msg.text());
    });
    const values = uniqueContact();
    await fillContact(page, values);
    await submitButton(page).click();
    const failed = toast(page, SEND_ERROR.title);
    await expect.poll(() => failed.isVisible(), { timeout: 8000 }).toBe(true);
    expect(await failed.innerText()).toContain(SEND_ERROR.text);
    expect(await contactValues(page)).toEqual(values);
    expect(stack.fake.requests).toHaveLength(1);
    await expect
      .poll(() => consoleErrors.length, { message: "error logged in the console" })
      .toBeGreaterThan(0);
    expect(await submitButton(page).isDisabled()).toBe(false);
    const [toastBox, buttonBox] = await Promise.all([failed.boundingBox(), submitButton(page).boundingBox()]);
    expect(toastBox && buttonBox).toBeTruthy();
    const overlap =
      toastBox!.x < buttonBox!.x + buttonBox!.width &&
      buttonBox!.x < toastBox!.x + toastBox!.width &&
      toastBox!.y < buttonBox!.y + buttonBox!.height &&
      buttonBox!.y < toastBox!.y + toastBox!.height;
    expect(overlap, JSON.stringify({ toastBox, buttonBox })).toBe(false);

    stack.fake.setMode({ kind: "slow", delayMs: 1200 });
    await submitButton(page).click();
    await expect.poll(() => submitButton(page).innerText()).toContain(SUBMITTING_LABEL);
    expect(await failed.count(), "the earlier error toast is gone while sending again").toBe(0);
    await expect.poll(() => toast(page, SUCCESS.title).isVisible(), { timeout: 8000 }).toBe(true);
    expect(await failed.count()).toBe(0);
    expect(stack.fake.requests).toHaveLength(2);
  });

  it("window.gtag sees form_submit with the spec's parameters before the request leaves", async () => {
    stack.fake.setMode({ kind: "slow", delayMs: 300 });
    const requestsWhenGtagRan: number[] = [];
    const page = await open(DESKTOP, async (p) => {
      await p.exposeBinding("__e2eGtagSeen", () => {
        requestsWhenGtagRan.push(stack.fake.requests.length);
      });
      await p.addInitScript(() => {
        const log: unknown[] = [];
        const w = window as unknown as Record<string, unknown>;
        w.__e2eLog = log;
        w.gtag = (...args: unknown[]) => {
          log.push({ kind: "gtag", args });
          (w.__e2eGtagSeen as () => void)();
        };
        const realFetch = window.fetch.bind(window);
        window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
          const method = (init?.method ?? (input instanceof Request ? input.method : "GET")).toUpperCase();
          log.push({ kind: "fetch", method });
          return realFetch(input, init);
        };
      });
    });
    const values = uniqueContact();
    await fillContact(page, values);
    await submitButton(page).click();
    await expect.poll(() => toast(page, SUCCESS.title).isVisible(), { timeout: 8000 }).toBe(true);

    const log = (await page.evaluate(() => (window as unknown as { __e2eLog: unknown[] }).__e2eLog)) as {
      kind: string;
      args?: unknown[];
      method?: string;
    }[];
    const gtagCalls = log.filter((entry) => entry.kind === "gtag");
    expect(gtagCalls.map((c) => c.args)).toContainEqual([
      "event",
      "form_submit",
      { event_category: "Contact", event_label: "Contact Form Submission" },
    ]);
    const gtagIndex = log.findIndex((entry) => entry.kind === "gtag" && entry.args?.[1] === "form_submit");
    const postIndex = log.findIndex((entry) => entry.kind === "fetch" && entry.method === "POST");
    expect(postIndex, JSON.stringify(log)).toBeGreaterThanOrEqual(0);
    expect(gtagIndex, "gtag fires before the POST").toBeLessThan(postIndex);
    expect(requestsWhenGtagRan[0], "the function had not been called yet").toBe(0);
    expect(stack.fake.requests).toHaveLength(1);
  });

  it("spam's one timing signal (decision 042): a typed name that is a URL, sent within 3 s of the first keystroke, is held (the same success toast); the same lead filled without typing is sent", async () => {
    const page = await open();
    const bodies: string[] = [];
    page.on("request", (request) => {
      if (request.method() === "POST") bodies.push(request.postData() ?? "");
    });
    const typed = { ...uniqueContact(), name: "" };
    await fillContact(page, typed);
    // The first keystroke starts the clock: only the last character is a key press, so the 3 s run
    // from it to the submit however slowly a busy machine types.
    await field(page, "name").fill("cheap-pills.co");
    await field(page, "name").press("m");
    await submitButton(page).click();
    const held = toast(page, SUCCESS.title);
    await expect.poll(() => held.isVisible(), { timeout: 8000 }).toBe(true);
    expect(bodies).toHaveLength(1);
    expect(bodies[0]).toMatch(/name="typing_ms"\r\n\r\n\d{1,4}\r\n/);
    expect(stack.fake.requests, "held as spam: never sent").toHaveLength(0);

    // Filled without a keystroke (autofill, a paste with the mouse): no timing at all, one signal, sent.
    const filled = { ...uniqueContact(), name: "cheap-pills.com" };
    await fillContact(page, filled);
    await submitButton(page).click();
    await expect.poll(() => stack.fake.requests.length, { timeout: 8000 }).toBe(1);
    expect(bodies[1]).not.toContain("typing_ms");
    expect(stack.fake.requests[0]!.json).toEqual(filled);
  });

  it("double-clicking Send Message sends one request", async () => {
    stack.fake.setMode({ kind: "slow", delayMs: 800 });
    const page = await open();
    const posts = countPosts(page);
    const values = uniqueContact();
    await fillContact(page, values);
    await submitButton(page).dblclick();
    // A third, late click while sending must not send either.
    await submitButton(page)
      .click({ force: true, trial: false })
      .catch(() => undefined);
    await expect.poll(() => toast(page, SUCCESS.title).isVisible(), { timeout: 8000 }).toBe(true);
    await waitForFormAtRest(page);
    expect(posts.count).toBe(1);
    expect(stack.fake.requests).toHaveLength(1);
  });

  // Issue 24: the visitor who sent the form from the keyboard stays where they were.

  /** Records what live regions (role status/alert, aria-live) say, from page load on. */
  const recordAnnouncements = async (page: Page): Promise<void> => {
    await page.addInitScript(() => {
      const said: { role: string | null; live: string | null; text: string; focused: boolean }[] = [];
      (window as unknown as { __e2eSaid: typeof said }).__e2eSaid = said;
      const selector = '[role="status"], [role="alert"], [aria-live]:not([aria-live="off"])';
      const note = (region: Element) => {
        const text = region.textContent?.trim() ?? "";
        if (!text) return;
        said.push({
          role: region.getAttribute("role"),
          live: region.getAttribute("aria-live"),
          text,
          focused: region.contains(document.activeElement),
        });
      };
      new MutationObserver((records) => {
        for (const record of records) {
          const target = record.target instanceof Element ? record.target : record.target.parentElement;
          const region = target?.closest(selector);
          if (region) note(region);
          for (const added of Array.from(record.addedNodes)) {
            if (!(added instanceof Element)) continue;
            const inside = added.matches(selector) ? [added] : Array.from(added.querySelectorAll(selector));
            inside.forEach(note);
          }
        }
      }).observe(document, { subtree: true, childList: true, characterData: true });
    });
  };
  const announcements = (page: Page) =>
    page.evaluate(
      () => (window as unknown as { __e2eSaid: { role: string | null; text: string }[] }).__e2eSaid,
    );

  const focusIs = (page: Page) =>
    page.evaluate(() => {
      const active = document.activeElement;
      if (!active || active === document.body) return "body";
      if (active.closest("#contact form") && active.matches('button[type="submit"]')) return "submit";
      if (active.closest('[role="region"] ol, [role="region"] li')) return "toast";
      return `${active.tagName.toLowerCase()} "${(active.textContent ?? "").trim().slice(0, 30)}"`;
    });

  it("Enter on Send Message (a failure, then a success): focus stays on the button while sending and after each answer; each toast is announced, not focused", async () => {
    const page = await open(DESKTOP, recordAnnouncements);
    const button = submitButton(page);
    for (const outcome of ["failure", "success"] as const) {
      stack.fake.setMode(
        outcome === "success"
          ? { kind: "slow", delayMs: 1200 }
          : { kind: "status", status: 500, delayMs: 1200 },
      );
      await fillContact(page, uniqueContact());
      await button.focus();
      await page.keyboard.press("Enter");

      await expect.poll(() => button.innerText(), { message: outcome }).toContain(SUBMITTING_LABEL);
      expect(await focusIs(page), `${outcome}: while sending`).toBe("submit");

      const title = outcome === "success" ? SUCCESS.title : SEND_ERROR.title;
      await expect.poll(() => toast(page, title).isVisible(), { timeout: 8000 }).toBe(true);
      expect((await button.innerText()).trim()).toBe(SUBMIT_LABEL);
      expect(await focusIs(page), `${outcome}: after the answer`).toBe("submit");
      await expect
        .poll(async () => (await announcements(page)).filter((entry) => entry.text.includes(title)), {
          message: `${outcome}: the outcome is said by a live region (role status or alert)`,
        })
        .toContainEqual(expect.objectContaining({ role: expect.stringMatching(/^(status|alert)$/) }));
      expect(await focusIs(page), `${outcome}: the announcement does not take focus`).toBe("submit");
    }
    expect(stack.fake.requests).toHaveLength(2);
  });
});
