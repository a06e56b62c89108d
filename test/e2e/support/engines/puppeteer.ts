/**
 * Chromium over the DevTools protocol and Firefox over WebDriver BiDi, both through puppeteer-core
 * (decision 035): Debian's `chromium` and `firefox-esr`, never a downloaded browser.
 */
import puppeteer, { type Browser, type KeyInput, type Page } from "puppeteer-core";

import { CHROMIUM_FLAGS, findChromium } from "../../../../scripts/chromium.mjs";
import { findFirefox } from "../../../../scripts/engines.mjs";
import {
  browserEnv,
  type EngineLauncher,
  type EngineName,
  type EngineSession,
  type Key,
  type SessionOptions,
  type Viewport,
} from "./driver";

const KEYS: Record<Exclude<Key, "Shift+Tab">, KeyInput> = {
  Tab: "Tab",
  Enter: "Enter",
  Escape: "Escape",
  // The key's value, which both of puppeteer's protocols know (WebDriver BiDi has no "Space").
  Space: " ",
  ArrowRight: "ArrowRight",
  ArrowDown: "ArrowDown",
};

/**
 * Firefox preferences for a test profile on a closed machine: no update checks, telemetry or
 * remote settings (nothing leaves 127.0.0.1), and page scripts off when the visitor has them off.
 */
function firefoxPrefs(options: SessionOptions): Record<string, unknown> {
  return {
    "javascript.enabled": options.javaScript,
    "app.update.enabled": false,
    "browser.shell.checkDefaultBrowser": false,
    "datareporting.policy.dataSubmissionEnabled": false,
    "toolkit.telemetry.enabled": false,
    "network.captive-portal-service.enabled": false,
    "network.connectivity-service.enabled": false,
    "services.settings.server": "http://127.0.0.1:9/",
  };
}

async function launch(engine: "chromium" | "firefox", options: SessionOptions): Promise<Browser> {
  if (engine === "chromium") {
    const path = findChromium().path;
    if (!path) throw new Error("no Chromium");
    return puppeteer.launch({
      browser: "chrome",
      executablePath: path,
      headless: true,
      args: CHROMIUM_FLAGS,
      env: browserEnv(options),
    });
  }
  const path = findFirefox().path;
  if (!path) throw new Error("no Firefox");
  return puppeteer.launch({
    browser: "firefox",
    executablePath: path,
    headless: true,
    extraPrefsFirefox: firefoxPrefs(options),
    env: browserEnv(options),
  });
}

class PuppeteerSession implements EngineSession {
  private readonly messages: string[] = [];

  constructor(
    readonly engine: EngineName,
    readonly javaScript: boolean,
    private readonly browser: Browser,
    private readonly page: Page,
  ) {
    page.on("console", (message) => this.messages.push(`${message.type()}: ${message.text()}`));
    page.on("pageerror", (error) => this.messages.push(`pageerror: ${String(error)}`));
  }

  async setViewport({ width, height }: Viewport): Promise<void> {
    await this.page.setViewport({ width, height, deviceScaleFactor: 1 });
  }

  async goto(url: string): Promise<void> {
    await this.page.goto(url, { waitUntil: "load", timeout: 30_000 });
  }

  evaluate<A, R>(fn: (arg: A) => R | Promise<R>, arg: A): Promise<R> {
    return this.page.evaluate(fn as (arg: unknown) => Promise<R>, arg) as Promise<R>;
  }

  async clickAt(x: number, y: number): Promise<void> {
    await this.page.mouse.click(x, y);
  }

  async pointerDown(x: number, y: number): Promise<void> {
    await this.page.mouse.move(x, y);
    await this.page.mouse.down();
  }

  async pointerUp(): Promise<void> {
    await this.page.mouse.up();
  }

  async press(key: Key): Promise<void> {
    if (key === "Shift+Tab") {
      await this.page.keyboard.down("Shift");
      await this.page.keyboard.press("Tab");
      await this.page.keyboard.up("Shift");
      return;
    }
    await this.page.keyboard.press(KEYS[key]);
  }

  async keyDown(key: Exclude<Key, "Shift+Tab">): Promise<void> {
    await this.page.keyboard.down(KEYS[key]);
  }

  async keyUp(key: Exclude<Key, "Shift+Tab">): Promise<void> {
    await this.page.keyboard.up(KEYS[key]);
  }

  async type(text: string): Promise<void> {
    await this.page.keyboard.type(text);
  }

  async screenshot(file: string, selector?: string): Promise<void> {
    const path = file as `${string}.png`;
    if (!selector) {
      await this.page.screenshot({ path });
      return;
    }
    const element = await this.page.$(selector);
    if (!element) throw new Error(`${this.engine}: no ${selector} to screenshot`);
    await element.screenshot({ path });
  }

  consoleMessages(): string[] {
    return [...this.messages];
  }

  async close(): Promise<void> {
    await this.browser.close();
  }
}

export function puppeteerLauncher(engine: "chromium" | "firefox"): EngineLauncher {
  return {
    engine,
    missing() {
      const found = engine === "chromium" ? findChromium() : findFirefox();
      return found.path ? null : found.reason;
    },
    async open(options) {
      const browser = await launch(engine, options);
      try {
        const [first] = await browser.pages();
        const page = first ?? (await browser.newPage());
        // Chromium's switch is per page; Firefox's is the profile preference set at launch.
        if (engine === "chromium") await page.setJavaScriptEnabled(options.javaScript);
        return new PuppeteerSession(engine, options.javaScript, browser, page);
      } catch (error) {
        await browser.close();
        throw error;
      }
    },
  };
}
