/**
 * Consent before analytics (docs/requirements.md, section 4; decision 047) in Chromium, Firefox and
 * WebKit. Requests go to a recording proxy that sends nothing on (test/e2e/support/recording-proxy.ts);
 * Accept is the positive control of the "nothing from Google" checks. axe-core's source runs as the
 * driver's own evaluation, which the page's Content-Security-Policy does not stop, and axe.run needs
 * no eval, which the policy still refuses the page.
 */
import axe from "axe-core";
import { expect, it } from "vitest";

import { describeEngines } from "./support/engines/suite";
import { DESKTOP, type Visitor } from "./support/engines/visitor";
import { AXE_TAGS, SUCCESS } from "./support/spec-texts";

const MEASUREMENT_ID = "G-CONSENT1";
const SERVER_ENV = { GA_MEASUREMENT_ID: MEASUREMENT_ID };
/** Any host of Google's (its tag, its analytics, its ad network). */
const GOOGLE = /google|doubleclick/i;
const TAG_HOST = /^www\.googletagmanager\.com$/;

function barShown(): boolean {
  const bar = document.getElementById("consent-bar");
  return Boolean(bar && !bar.hidden && bar.getBoundingClientRect().height > 0);
}

function barGone(): boolean {
  const bar = document.getElementById("consent-bar");
  return Boolean(bar && bar.hidden && bar.getBoundingClientRect().height === 0);
}

/** A first visit: no choice kept from an earlier test. */
async function openFresh(page: Visitor, path = "/"): Promise<void> {
  await page.open(path, DESKTOP);
  await page.evaluate(() => localStorage.removeItem("analytics-consent"));
  await page.open(path, DESKTOP);
}

const choice = (page: Visitor) => page.evaluate(() => localStorage.getItem("analytics-consent"));

function toastSays(title: string): boolean {
  return Array.from(document.querySelectorAll("[role=region] *")).some(
    (el) => el.children.length === 0 && (el.textContent ?? "").includes(title),
  );
}

/** The tag cannot load here: dataLayer is what it would read. */
function eventsOf(): string[] {
  const layer = (window as unknown as { dataLayer?: ArrayLike<unknown>[] }).dataLayer ?? [];
  return Array.from(layer)
    .map((entry) => Array.from(entry))
    .filter((entry) => entry[0] === "event")
    .map((entry) => String(entry[1]));
}

/** Runs in the page, once axe-core's source has run there. */
async function auditBar(tags: string[]): Promise<{ passes: string[]; violations: string[] }> {
  const pageAxe = (window as unknown as { axe: typeof axe }).axe;
  const results = await pageAxe.run("#consent-bar", { runOnly: { type: "tag", values: tags } });
  const named = (rules: typeof results.passes) =>
    rules.map((rule) => `${rule.id}: ${rule.nodes.map((node) => node.target.join(" ")).join(", ")}`);
  return { passes: named(results.passes), violations: named(results.violations) };
}

describeEngines(
  "consent before analytics, in every engine (GA_MEASUREMENT_ID set)",
  ({ engine, stack, visitor }) => {
    const googleSince = (from: number) =>
      stack
        .proxy!.hosts()
        .slice(from)
        .filter((host) => GOOGLE.test(host));

    it(`${engine}: before a choice the bar is shown, fixed at the bottom, announced, axe finds nothing on it, and the first Tabs reach Accept then Decline, Enter chooses; nothing from Google is asked for`, async () => {
      const page = await visitor(true);
      const from = stack.proxy!.hosts().length;
      await openFresh(page);
      // The server's controls, held before React hydrates (it waits for idle time, decision 036).
      const heldBeforeHydration = await page.evaluate(() => {
        const w = window as unknown as { held?: Element[] };
        w.held = ["[data-consent='accept']", "[data-consent='decline']", "footer [data-consent='open']"].map(
          (selector) => document.querySelector(selector)!,
        );
        return !Object.keys(document.getElementById("main") ?? {}).some((key) => key.startsWith("__react"));
      });
      await page.waitFor(barShown, undefined, "the consent bar");
      await page.waitForEnhancement();
      // Hydration kept every node a visitor can press: no mismatch made React render them anew.
      expect(
        await page.evaluate(() => {
          const held = (window as unknown as { held: Element[] }).held;
          return held.map((element) => element.isConnected);
        }),
      ).toEqual([true, true, true]);
      const logged = page.session.consoleMessages();
      if (logged)
        expect(
          logged.filter((line) => /Minified React error #4(18|19|20|21|22|23|25)|hydrat/i.test(line)),
        ).toEqual([]);
      if (!heldBeforeHydration) console.warn(`${engine}: React had hydrated before the controls were held`);
      const place = await page.evaluate(() => {
        const bar = document.getElementById("consent-bar")!;
        const box = bar.getBoundingClientRect();
        return {
          position: getComputedStyle(bar).position,
          bottom: Math.round(box.bottom),
          viewport: window.innerHeight,
          height: Math.round(box.height),
        };
      });
      expect(place.position).toBe("fixed");
      expect(place.bottom).toBe(place.viewport);
      // Small: a strip at the bottom, never a wall over the page.
      expect(place.height).toBeLessThan(place.viewport / 3);
      await page.waitFor(
        (text) => document.getElementById("consent-status")?.textContent === text,
        "Analytics cookies: choose Accept or Decline at the bottom of the page.",
        "the bar announced in the live region",
      );
      await page.session.runScript(axe.source);
      const { passes, violations } = await page.evaluate(auditBar, AXE_TAGS);
      // The positive control: axe did look at the bar's controls.
      expect(passes.filter((rule) => rule.startsWith("button-name:")).join()).toMatch(/accept.*decline/);
      expect(violations).toEqual([]);
      const focused: string[] = [];
      for (let presses = 0; presses < 4 && !focused.includes("accept"); presses += 1) {
        await page.press("Tab");
        focused.push(
          await page.evaluate(
            () =>
              document.activeElement?.getAttribute("data-consent") ?? document.activeElement?.tagName ?? "",
          ),
        );
      }
      // The bar's own "Privacy Policy" link may come first; nothing of the page does.
      expect(focused.at(-1)).toBe("accept");
      expect(focused.length).toBeLessThanOrEqual(2);
      await page.press("Tab");
      expect(await page.evaluate(() => document.activeElement?.getAttribute("data-consent"))).toBe("decline");
      expect(googleSince(from)).toEqual([]);
      expect(await page.evaluate(() => typeof (window as { gtag?: unknown }).gtag)).toBe("undefined");
      await page.press("Enter");
      await page.waitFor(barGone, undefined, "the bar to go after Enter on Decline");
      expect(await choice(page)).toBe("denied");
    });

    it(`${engine}: Decline hides the bar and keeps the choice; across a reload nothing from Google is asked for, the bar stays away, "Cookie settings" in the footer opens the choice again, with focus on it, and Escape closes it; a submission fires no form_submit`, async () => {
      const page = await visitor(true);
      const from = stack.proxy!.hosts().length;
      await openFresh(page);
      await page.waitFor(barShown, undefined, "the consent bar");
      await page.waitForEnhancement();
      await page.click("[data-consent='decline']");
      await page.waitFor(barGone, undefined, "the bar to go");
      expect(await choice(page)).toBe("denied");
      await page.waitFor(
        () => document.getElementById("consent-status")?.textContent === "Analytics declined.",
        undefined,
        "the choice announced",
      );
      await page.open("/#contact", DESKTOP);
      await page.waitForEnhancement();
      await page.waitForLanding("contact");
      expect(await page.evaluate(barGone)).toBe(true);
      await page.click("footer [data-consent='open']", "Cookie settings");
      await page.waitFor(
        () => {
          const bar = document.getElementById("consent-bar");
          return Boolean(bar && !bar.hidden && document.activeElement === bar);
        },
        undefined,
        "the bar shown again, focused",
      );
      await page.press("Escape");
      await page.waitFor(
        () => document.activeElement?.getAttribute("data-consent") === "open",
        undefined,
        "focus back on Cookie settings",
      );
      expect(await page.evaluate(barGone)).toBe(true);
      // A submission without consent fires no form_submit (the Accept test below is the control).
      await page.fillValidRequest();
      await page.click('#contact form button[type="submit"]');
      await page.waitFor(toastSays, SUCCESS.title, "the success toast");
      expect(await page.evaluate(eventsOf)).toEqual([]);
      expect(googleSince(from)).toEqual([]);
      expect(await choice(page)).toBe("denied");
    });

    it(`${engine}: Accept asks Google's host for the tag, and one form submission fires form_submit once`, async () => {
      const page = await visitor(true);
      const from = stack.proxy!.hosts().length;
      await openFresh(page, "/#contact");
      await page.waitFor(barShown, undefined, "the consent bar");
      await page.waitForEnhancement();
      await page.waitForLanding("contact");
      expect(googleSince(from)).toEqual([]);
      await page.click("[data-consent='accept']");
      await stack.proxy!.waitForHost(TAG_HOST, { from });
      expect(await choice(page)).toBe("granted");
      expect(await page.evaluate(eventsOf)).toEqual([]);
      await page.fillValidRequest();
      await page.click('#contact form button[type="submit"]');
      await page.waitFor(toastSays, SUCCESS.title, "the success toast");
      expect(await page.evaluate(eventsOf)).toEqual(["form_submit"]);
      // The next visit loads the tag at once, without asking again.
      const again = stack.proxy!.hosts().length;
      await page.open("/", DESKTOP);
      expect(await page.evaluate(barGone)).toBe(true);
      await stack.proxy!.waitForHost(TAG_HOST, { from: again });
      // Nothing of this session asks for anything while the next test watches.
      await page.session.goto("about:blank");
    });

    it(`${engine}, JavaScript off: no bar, no Cookie settings, nothing from Google`, async () => {
      const page = await visitor(false);
      const from = stack.proxy!.hosts().length;
      await page.open("/", DESKTOP);
      const state = await page.evaluate(() => ({
        bar: document.getElementById("consent-bar")?.getBoundingClientRect().height ?? -1,
        settings:
          document.querySelector("footer [data-consent='open']")?.getBoundingClientRect().height ?? -1,
        footer: document.querySelector("footer")?.getBoundingClientRect().height ?? 0,
      }));
      // In the markup (the same bytes for everyone), shown to nobody without a script.
      expect(state).toEqual({ bar: 0, settings: 0, footer: expect.any(Number) });
      expect(state.footer).toBeGreaterThan(0);
      expect(googleSince(from)).toEqual([]);
    });
  },
  { serverEnv: SERVER_ENV, recordRequests: true },
);
