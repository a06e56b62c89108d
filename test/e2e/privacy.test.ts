import type { Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";

import { type AppServer, startAppServer } from "../support/app-server";
import { describeBrowser, PHONE, useStack } from "./support/browser";
import { findHorizontalOverflow } from "./support/layout";
import { scrollThrough } from "./support/page";

/**
 * /privacy in Chromium (issue 41, decision 043): readable on the narrowest phone with what
 * configuration puts on it (the "not published" marks, or long names and a long e-mail address),
 * complete without JavaScript, and usable with the keyboard. axe runs in accessibility.test.ts.
 */

/** As long as real values get; the e-mail has no hyphen, which would be a place to break a line. */
const LONG_VALUES = {
  PRIVACY_CONTROLLER_NAME: "Intercontinental Automation Consultancy Services Limited Liability Company",
  PRIVACY_CONTROLLER_ADDRESS:
    "Suite 1200, 1234 Extraordinarilylongstreetname Boulevard, Cincinnati, OH 45202, USA",
  PRIVACY_CONTACT_EMAIL: "dataprotectionrequests@intercontinentalautomationconsultancy.example.com",
  PRIVACY_HOSTING_PROVIDER: "Hetzner Online GmbH, Industriestr. 25, 91710 Gunzenhausen, Germany",
  PRIVACY_EMAIL_PROVIDER: "Postmarkapp-Transactional-Email-Service-Incorporated",
};

const PARTS = [
  "controller",
  "fields",
  "purposes",
  "recipients",
  "retention",
  "ip-address",
  "cookies",
  "rights",
];

describeBrowser("the privacy page in a browser", () => {
  // Nothing configured: the stack's server (no function, no controller, no analytics).
  const stack = useStack();
  let configured: AppServer;
  beforeAll(async () => {
    configured = await startAppServer({
      ...LONG_VALUES,
      SUPABASE_URL: "http://127.0.0.1:9",
      SUPABASE_ANON_KEY: "privacy-e2e-anon-key",
      GA_MEASUREMENT_ID: "",
    });
  });
  afterAll(async () => {
    await configured?.stop();
  });

  async function open(base: string, javaScriptEnabled: boolean, width = 320): Promise<Page> {
    const viewport = { width, height: 844 };
    const page = await stack.page({ ...PHONE, viewport, javaScriptEnabled }, { path: `${base}/privacy` });
    if (javaScriptEnabled) await scrollThrough(page);
    return page;
  }

  async function expectNoOverflowAt320(page: Page): Promise<void> {
    await page.setViewportSize({ width: 320, height: 844 });
    const problems = await page.evaluate(findHorizontalOverflow);
    expect(problems, problems.join("\n")).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
  }

  it("320 px, long configured values, with JavaScript: nothing overflows horizontally", async () => {
    await expectNoOverflowAt320(await open(configured.url, true));
  });

  it("320 px, long configured values, without JavaScript: every part of the page and the footer are shown; nothing overflows horizontally; the e-mail address wraps inside the column, and every value is shown", async () => {
    const page = await open(configured.url, false);
    for (const selector of [...PARTS.map((id) => `#${id}`), "body > footer"])
      expect(await page.locator(selector).isVisible(), selector).toBe(true);
    await expectNoOverflowAt320(page);
    const text = await page.locator("#controller").innerText();
    for (const value of [LONG_VALUES.PRIVACY_CONTROLLER_NAME, LONG_VALUES.PRIVACY_CONTROLLER_ADDRESS])
      expect(text.replace(/\s+/g, " ")).toContain(value);
    const email = page.locator(`#controller a[href="mailto:${LONG_VALUES.PRIVACY_CONTACT_EMAIL}"]`);
    const box = await email.evaluate((el) => {
      const rects = Array.from(el.getClientRects());
      return { lines: rects.length, right: Math.max(...rects.map((rect) => rect.right)) };
    });
    expect(box.lines).toBeGreaterThan(1);
    expect(box.right).toBeLessThanOrEqual(320);
  });

  // With nothing configured, every part and in-page link target is in the HTML (test/http/privacy.test.ts);
  // the parts are shown without JavaScript (the test above).
  it("nothing configured, with JavaScript: Skip to main content comes first and lands in main; every link on the page shows a focus ring; at 320 px nothing overflows horizontally", async () => {
    const page = await open(stack.app.url, true, PHONE.viewport!.width);
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Skip to main content");
    await page.keyboard.press("Enter");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("main");
    const withoutRing: string[] = [];
    let reachedFooter = false;
    for (let i = 0; i < 80 && !reachedFooter; i += 1) {
      await page.keyboard.press("Tab");
      const focused = await page.evaluate(() => {
        const el = document.activeElement as HTMLElement | null;
        if (!el || el === document.body) return null;
        const style = getComputedStyle(el);
        return {
          label: `${el.tagName.toLowerCase()} "${(el.innerText || el.getAttribute("aria-label") || "").trim().slice(0, 40)}"`,
          ring: style.outlineStyle !== "none" && parseFloat(style.outlineWidth) > 0,
          inFooter: el.closest("body > footer") !== null,
        };
      });
      if (!focused) break;
      if (!focused.ring) withoutRing.push(focused.label);
      reachedFooter = focused.inFooter;
    }
    expect(reachedFooter, "Tab reaches the footer through the page").toBe(true);
    expect(withoutRing).toEqual([]);
    await expectNoOverflowAt320(page);
  });
});
