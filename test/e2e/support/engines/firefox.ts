/**
 * Firefox over WebDriver BiDi through puppeteer-core (decisions 035 and 051): Debian's
 * `firefox-esr`, never a downloaded browser (playwright-core drives only its own patched Firefox).
 */
import { cpSync, existsSync, mkdtempSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";

import puppeteer, { type Browser, type Page } from "puppeteer-core";

import { findFirefox } from "../../../../scripts/engines.mjs";
import {
  browserEnv,
  type EngineLauncher,
  type EngineSession,
  type SessionOptions,
  type Viewport,
} from "./driver";
import { DeviceSession } from "./device-session";

/** Nothing leaves 127.0.0.1: no update checks, telemetry or remote settings. */
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
    // No spare content process started ahead (a session opens one tab): 1.5 CPU s a start.
    "dom.ipc.processPrelaunch.enabled": false,
    ...(options.proxy ? firefoxProxyPrefs(options.proxy) : {}),
  };
}

/** Every http(s) request through the proxy, but loopback's (Firefox never proxies localhost by default). */
function firefoxProxyPrefs(proxy: string): Record<string, unknown> {
  const { hostname, port } = new URL(proxy);
  return {
    "network.proxy.type": 1,
    "network.proxy.http": hostname,
    "network.proxy.http_port": Number(port),
    "network.proxy.ssl": hostname,
    "network.proxy.ssl_port": Number(port),
    "network.proxy.no_proxies_on": "127.0.0.1, localhost",
    "network.proxy.allow_hijacking_localhost": false,
  };
}

/**
 * A new profile's first start builds Firefox's caches, and a run has a dozen Firefox sessions. So
 * within `npm test` (TEST_RUN_DIR) Firefox starts once on a folder that becomes the run's template,
 * and each session starts on a copy (puppeteer writes user.js over it). Of two files making one at
 * once, the first renamed into place wins. Outside `npm test`: undefined, a new profile.
 */
async function firefoxProfile(executablePath: string): Promise<string | undefined> {
  const runDir = process.env.TEST_RUN_DIR;
  if (!runDir) return undefined;
  const template = join(runDir, "firefox-profile");
  if (!existsSync(template)) {
    const own = mkdtempSync(join(runDir, "firefox-profile-"));
    const browser = await puppeteer.launch({
      browser: "firefox",
      executablePath,
      headless: true,
      userDataDir: own,
      extraPrefsFirefox: firefoxPrefs({ javaScript: true }),
    });
    await browser.close();
    try {
      renameSync(own, template);
    } catch {
      rmSync(own, { recursive: true, force: true });
    }
  }
  const copy = mkdtempSync(join(runDir, "firefox-session-"));
  cpSync(template, copy, { recursive: true });
  return copy;
}

async function launch(options: SessionOptions): Promise<{ browser: Browser; profile?: string }> {
  const path = findFirefox().path;
  if (!path) throw new Error("no Firefox");
  const profile = await firefoxProfile(path);
  try {
    const browser = await puppeteer.launch({
      browser: "firefox",
      executablePath: path,
      headless: true,
      ...(profile ? { userDataDir: profile } : {}),
      extraPrefsFirefox: firefoxPrefs(options),
      env: browserEnv(options),
    });
    return { browser, profile };
  } catch (error) {
    if (profile) rmSync(profile, { recursive: true, force: true });
    throw error;
  }
}

class FirefoxSession extends DeviceSession implements EngineSession {
  readonly engine = "firefox";

  constructor(
    readonly javaScript: boolean,
    private readonly browser: Browser,
    protected override readonly page: Page,
    /** A copy of the run's Firefox profile, removed at close (puppeteer keeps a folder it was given). */
    private readonly profile?: string,
  ) {
    super(page);
    page.on("console", (message) => this.messages.push(`${message.type()}: ${message.text()}`));
    page.on("pageerror", (error) => this.messages.push(`pageerror: ${String(error)}`));
  }

  async setViewport({ width, height }: Viewport): Promise<void> {
    await this.page.setViewport({ width, height, deviceScaleFactor: 1 });
  }

  evaluate<A, R>(fn: (arg: A) => R | Promise<R>, arg: A): Promise<R> {
    return this.page.evaluate(fn as (arg: unknown) => Promise<R>, arg) as Promise<R>;
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

  async close(): Promise<void> {
    try {
      await this.browser.close();
    } finally {
      if (this.profile) rmSync(this.profile, { recursive: true, force: true });
    }
  }
}

export function firefoxLauncher(): EngineLauncher {
  return {
    engine: "firefox",
    missing() {
      const found = findFirefox();
      return found.path ? null : found.reason;
    },
    async open(options) {
      const { browser, profile } = await launch(options);
      try {
        // A tab the driver opens has focus, as a visitor's has. The tab headless Firefox starts with
        // never gets it (not even with bringToFront or focusmanager.testmode): Tab moves focus there,
        // but no focus event fires and Enter or Space on a button does not press it.
        const started = await browser.pages();
        const page = await browser.newPage();
        await Promise.all(started.map((tab) => tab.close()));
        return new FirefoxSession(options.javaScript, browser, page, profile);
      } catch (error) {
        await browser.close();
        if (profile) rmSync(profile, { recursive: true, force: true });
        throw error;
      }
    },
  };
}
