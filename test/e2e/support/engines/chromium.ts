/**
 * Chromium over the DevTools protocol through playwright-core, the library every other browser
 * test drives it with (test/e2e/support/browser.ts): Debian's `chromium`, never a downloaded one.
 */
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";

import { CHROMIUM_FLAGS, findChromium } from "../../../../scripts/chromium.mjs";
import {
  browserEnv,
  type EngineLauncher,
  type EngineSession,
  type SessionOptions,
  type Viewport,
} from "./driver";
import { DeviceSession } from "./device-session";

class ChromiumSession extends DeviceSession implements EngineSession {
  readonly engine = "chromium";

  constructor(
    readonly javaScript: boolean,
    private readonly browser: Browser,
    private readonly context: BrowserContext,
    protected override readonly page: Page,
  ) {
    super(page);
    page.on("console", (message) => this.messages.push(`${message.type()}: ${message.text()}`));
    page.on("pageerror", (error) => this.messages.push(`pageerror: ${String(error)}`));
  }

  async setViewport({ width, height }: Viewport): Promise<void> {
    await this.page.setViewportSize({ width, height });
  }

  evaluate<A, R>(fn: (arg: A) => R | Promise<R>, arg: A): Promise<R> {
    return this.page.evaluate(fn as (arg: unknown) => R | Promise<R>, arg);
  }

  async screenshot(path: string, selector?: string): Promise<void> {
    if (!selector) {
      await this.page.screenshot({ path });
      return;
    }
    await this.page.locator(selector).first().screenshot({ path, timeout: 10_000 });
  }

  async close(): Promise<void> {
    await this.context.close().catch(() => undefined);
    await this.browser.close();
  }
}

async function open(options: SessionOptions): Promise<EngineSession> {
  const path = findChromium(process.env, { forTests: true }).path;
  if (!path) throw new Error("no Chromium");
  const browser = await chromium.launch({
    executablePath: path,
    headless: true,
    // Chromium sends loopback directly whatever the proxy (its implicit "<-loopback>" bypass).
    args: options.proxy ? [...CHROMIUM_FLAGS, `--proxy-server=${options.proxy}`] : CHROMIUM_FLAGS,
    env: browserEnv(options),
  });
  try {
    const context = await browser.newContext({
      javaScriptEnabled: options.javaScript,
      deviceScaleFactor: 1,
    });
    return new ChromiumSession(options.javaScript, browser, context, await context.newPage());
  } catch (error) {
    await browser.close();
    throw error;
  }
}

export function chromiumLauncher(): EngineLauncher {
  return {
    engine: "chromium",
    missing() {
      const found = findChromium(process.env, { forTests: true });
      return found.path ? null : found.reason;
    },
    open,
  };
}
