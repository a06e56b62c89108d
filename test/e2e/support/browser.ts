import { fileURLToPath } from "node:url";

import {
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  chromium,
  type Page,
} from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect } from "vitest";

import { type AppServer, startAppServer } from "../../support/app-server";
import { type FakeFunction, startFakeFunction } from "../../support/fake-function";
import { browserRequired, CHROMIUM_FLAGS, findChromium } from "../../../scripts/chromium.mjs";
import { keepTrafficLocal, waitForHydration } from "./page";

const found = findChromium(process.env, { forTests: true });
const skipBrowser = process.env.E2E_SKIP_BROWSER === "1" || (!found.path && !browserRequired());

/**
 * `describe` for suites that need a browser: skipped (visibly, as "skipped") when no Chromium is
 * installed, unless CI=true / REQUIRE_BROWSER=1, where the suite runs and fails in `launchChromium`.
 */
export function describeBrowser(name: string, suite: () => void): void {
  // A browser test drives a whole page on a shared 2-core machine: give each one room.
  describe.skipIf(skipBrowser)(name, { timeout: 90_000 }, suite);
}

export async function launchChromium(): Promise<Browser> {
  if (!found.path) {
    throw new Error(`No Chromium for the browser tests: ${found.reason}. Install it or set CHROME_PATH.`);
  }
  return chromium.launch({ executablePath: found.path, headless: true, args: CHROMIUM_FLAGS });
}

export const PHONE: BrowserContextOptions = {
  viewport: { width: 390, height: 844 },
  deviceScaleFactor: 1,
  isMobile: true,
  hasTouch: true,
};

export const DESKTOP: BrowserContextOptions = {
  viewport: { width: 1280, height: 800 },
  deviceScaleFactor: 1,
};

export const SIZES = [
  { name: "phone", options: PHONE },
  { name: "desktop", options: DESKTOP },
] as const;

export const root = fileURLToPath(new URL("../../..", import.meta.url));

export interface Stack {
  app: AppServer;
  fake: FakeFunction;
  browser: Browser;
  context(options?: BrowserContextOptions): Promise<BrowserContext>;
  /**
   * A page in a fresh context (desktop by default), traffic kept local, `path` loaded and hydrated
   * when JavaScript is on (`hydrate: false`: only loaded); `before` runs before it loads.
   */
  page(options?: BrowserContextOptions, open?: OpenOptions): Promise<Page>;
}

export interface OpenOptions {
  path?: string;
  hydrate?: boolean;
  before?: (page: Page) => Promise<unknown>;
}

/** The production server every browser test talks to, wired to a fake `send-contact-email`. */
export async function startBrowserTestServer(
  env: Record<string, string | undefined> = {},
): Promise<{ app: AppServer; fake: FakeFunction }> {
  const fake = await startFakeFunction();
  const app = await startAppServer({
    SUPABASE_URL: fake.url,
    SUPABASE_ANON_KEY: "e2e-anon-key",
    // Short enough that a hanging function is reported within a test, long enough for "slow".
    CONTACT_FUNCTION_TIMEOUT_MS: "5000",
    // Every browser test posts from 127.0.0.1: the abuse limits are tested elsewhere.
    RATE_LIMIT_PER_CLIENT: "100000",
    RATE_LIMIT_GLOBAL_PER_MINUTE: "1000000",
    GA_MEASUREMENT_ID: "",
    ...env,
  });
  return { app, fake };
}

/** One server, fake `send-contact-email` and browser per file; the fields are set in `beforeAll`. */
export function useStack(): Stack {
  const contexts: BrowserContext[] = [];
  const stack = {} as Stack;
  // Every suite runs on the document visitors get: the cached home page (issue 12), never a
  // fresh render. A GET / answered any other way is a failure of the test that loaded it.
  const freshRenders: string[] = [];
  beforeAll(async () => {
    Object.assign(stack, await startBrowserTestServer());
    stack.browser = await launchChromium();
    stack.context = async (options = DESKTOP) => {
      const context = await stack.browser.newContext({ baseURL: stack.app.url, ...options });
      context.on("response", (response) => {
        const request = response.request();
        if (request.resourceType() !== "document" || request.method() !== "GET" || response.status() !== 200)
          return;
        if (new URL(response.url()).pathname !== "/") return;
        const headers = response.headers();
        const policy = headers["content-security-policy"] ?? "";
        if (!headers.etag || !policy.includes("'sha256-") || policy.includes("'nonce-"))
          freshRenders.push(`${response.url()} (etag ${headers.etag ?? "none"})`);
      });
      contexts.push(context);
      return context;
    };
    stack.page = async (options = DESKTOP, { path = "/", hydrate = true, before } = {}) => {
      const context = await stack.context(options);
      await keepTrafficLocal(context);
      const page = await context.newPage();
      await before?.(page);
      await page.goto(path);
      if (hydrate && options.javaScriptEnabled !== false) await waitForHydration(page);
      return page;
    };
  });
  // Close each test's pages when it ends: idle pages still animate and would slow the next tests.
  afterEach(async () => {
    await Promise.allSettled(contexts.splice(0).map((context) => context.close()));
    expect(freshRenders.splice(0), "GET / answered by a fresh render, not the cached document").toEqual([]);
    // A server gone mid-file shows up as net::ERR_CONNECTION_REFUSED in every later test: say how
    // it ended, with its last lines, instead.
    const { exitCode, signalCode } = stack.app.process;
    if (exitCode !== null || signalCode !== null)
      throw new Error(
        `the production server ended (exit ${exitCode}, signal ${signalCode}):\n${stack.app.output().slice(-3000)}`,
      );
  });
  afterAll(async () => {
    await Promise.allSettled(contexts.map((context) => context.close()));
    await stack.browser?.close();
    await stack.app?.stop();
    await stack.fake?.close();
  });
  return stack;
}
