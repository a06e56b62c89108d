import {
  cpSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
  existsSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { describeBrowser, launchChromium } from "../e2e/support/browser";
import { waitForHydration } from "../e2e/support/page";
import { SEND_ERROR, SUCCESS } from "../e2e/support/spec-texts";
import { type FakeFunction, startFakeFunction } from "../support/fake-function";
import {
  descendantsOf,
  isAlive,
  killTree,
  isListening,
  listeningAddresses,
  type NpmRun,
  runNpm,
  waitFor,
  waitForStatus,
} from "../support/npm";
import { browserBuildDir, filesUnder, serverBuildDir } from "../support/build-output";
import { readLeads } from "../support/leads";
import { freePort } from "../support/ports";
import { root } from "../support/server-process.mjs";

/**
 * `npm run dev` on a checkout of its own (a copy of the sources sharing node_modules, and of the
 * production build), so that edits never touch this one.
 */

const SOURCES = [
  "app",
  // `npm run build` bundles the leads CLI too.
  "cli",
  "mocks",
  "public",
  "scripts",
  "server",
  "package.json",
  "remix.config.js",
  "postcss.config.js",
  "tsconfig.json",
];

function checkoutCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), "dev-checkout-"));
  for (const name of SOURCES)
    cpSync(join(root, name), join(dir, name), {
      recursive: true,
      filter: (src) => !src.includes("/public/build"),
    });
  symlinkSync(join(root, "node_modules"), join(dir, "node_modules"), "dir");
  return dir;
}

/** The same sources make the same build: this checkout's, copied instead of built again. */
function copyProductionBuild(dir: string): void {
  cpSync(serverBuildDir, join(dir, "build"), { recursive: true });
  cpSync(browserBuildDir, join(dir, "public/build"), { recursive: true });
  const serverFile = join(dir, "build/index.js");
  writeFileSync(
    serverFile,
    readFileSync(serverFile, "utf8").replace(
      /assetsBuildDirectory = "[^"]+"/,
      'assetsBuildDirectory = "public/build"',
    ),
  );
}

const productionBuildFiles = (dir: string) =>
  ["build", "public/build"]
    .flatMap((folder) => filesUnder(join(dir, folder)))
    .map((file) => `${file} ${statSync(file).mtimeMs}`);

const isolated = (dir: string) => ({
  REMIX_BUILD_DIR: undefined,
  HOST: undefined,
  SUPABASE_URL: undefined,
  SUPABASE_ANON_KEY: undefined,
  MOCKS: undefined,
  DATABASE_URL: undefined,
  LEADS_DATABASE_FILE: join(dir, ".data/leads.sqlite"),
});

async function stopThroughNpm(run: NpmRun, signal: NodeJS.Signals, port: number): Promise<void> {
  const processes = descendantsOf(run.pid);
  expect(processes.length).toBeGreaterThan(0);
  process.kill(run.pid, signal);
  expect(await run.exited).toEqual({ code: 0, signal: null });
  expect(await isListening(port)).toBe(false);
  await waitFor("every process npm started to end", () => processes.every((pid) => !isAlive(pid)), 10_000);
}

function expectNoBuildWarnings(run: NpmRun): void {
  expect(run.output()).not.toMatch(/css-syntax-error|\[WARNING\]|▲|warning/i);
}

/**
 * `MOCKS=true npm run dev` (issue 24). The shell's SUPABASE_URL is a real listener and it names a
 * production lead store (a file, and a PostgreSQL URL): none may see anything. MOCKS_MODE=fail is
 * held in test/lib/contact/dev-mocks.test.ts and test/lib/env.test.ts.
 */
describeBrowser("MOCKS=true npm run dev", () => {
  let dir: string;
  let browser: Browser;
  let shellFunction: FakeFunction;
  let productionFile: string;
  let serial = 0;

  beforeAll(async () => {
    dir = checkoutCopy();
    copyProductionBuild(dir);
    [browser, shellFunction] = await Promise.all([launchChromium(), startFakeFunction()]);
    productionFile = join(mkdtempSync(join(tmpdir(), "dev-mocks-production-")), "leads.sqlite");
  }, 120_000);
  afterAll(async () => {
    await Promise.all([browser?.close(), shellFunction?.close()]);
    rmSync(dir, { recursive: true, force: true });
  });

  const shell = (port: number) => ({
    ...isolated(dir),
    PORT: String(port),
    MOCKS: "true",
    SUPABASE_URL: shellFunction.url,
    SUPABASE_ANON_KEY: "a-real-looking-anon-key",
    LEADS_DATABASE_FILE: productionFile,
    // Nothing listens there: were it used, every lead would go to the function directly, unstored.
    DATABASE_URL: "postgres://site:secret@127.0.0.1:1/production",
    CONTACT_FUNCTION_TIMEOUT_MS: "1500",
    // The dispatcher would retry the mock-fail lead later: not within this test.
    CONTACT_RETRY_INITIAL_SECONDS: "3600",
  });

  /** A visitor without JavaScript sends the form; the answer as the browser gets it. */
  async function send(url: string, message: string): Promise<{ status: number; html: string }> {
    const body = new URLSearchParams({
      name: "Ada Lovelace",
      email: "ada@example.com",
      message: `${message} (dev mocks case ${++serial})`,
    });
    const res = await fetch(`${url}/?index`, { method: "POST", body, redirect: "manual" });
    if (res.status !== 303) return { status: res.status, html: await res.text() };
    const next = await fetch(new URL(res.headers.get("location")!, url));
    return { status: 303, html: await next.text() };
  }

  it("builds into .builds/dev only, listens on 127.0.0.1, reloads the open page on an edit of content or a component; the mock succeeds, fails on mock-fail and times out on mock-timeout as a visitor sees it, the real URL and the production file get nothing; no build warning; stops on SIGINT to npm; npm start then serves the production build and refuses the development one in one line", async () => {
    const production = productionBuildFiles(dir);
    const port = await freePort();
    const dev = runNpm(["run", "dev"], { cwd: dir, env: shell(port) });
    try {
      const url = `http://127.0.0.1:${port}`;
      await waitForStatus(dev, `${url}/`);
      expect(existsSync(join(dir, ".builds/dev/index.js"))).toBe(true);
      // 7F000001 is 127.0.0.1: no socket on any other address.
      expect(listeningAddresses(port)).toEqual(["0100007F"]);
      expect(dev.output()).toContain("[mocks] send-contact-email is mocked: succeeds");
      expect(dev.output()).toContain('"contactSink":"mocked"');

      const page = await browser.newPage();
      // React's development build warns of what the server's HTML and the first client render
      // disagree on; the loader's renderings of the later parts must not be among them.
      const reactWarnings: string[] = [];
      page.on("console", (message) => {
        if (message.type() === "error" && message.text().startsWith("Warning:"))
          reactWarnings.push(message.text());
      });
      await page.goto(`${url}/`);
      // Tab renders every later part before the scripts come back (decision 036), then hydration.
      await page.keyboard.press("Tab");
      await waitForHydration(page);
      expect(reactWarnings).toEqual([]);
      const heading = page.locator("#hero-heading");
      const before = await heading.textContent();
      await page.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));

      const content = join(dir, "app/content/hero.ts");
      writeFileSync(
        content,
        readFileSync(content, "utf8").replace(
          /heading: "([^"]*)"/,
          'heading: "Edited by the live reload test."',
        ),
      );
      await expect
        .poll(() => heading.textContent(), { timeout: 60_000 })
        .toContain("Edited by the live reload test.");
      expect(
        await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded),
      ).toBeUndefined();
      expect(before).not.toContain("Edited by the live reload test.");

      const component = join(dir, "app/components/Hero.tsx");
      writeFileSync(
        component,
        readFileSync(component, "utf8").replace(
          "</h1>",
          '<span data-edited="component"> (component edited)</span></h1>',
        ),
      );
      await expect.poll(() => page.locator('[data-edited="component"]').count(), { timeout: 60_000 }).toBe(1);
      await page.close();

      const ok = await send(url, "Please automate our weekly invoicing run for us.");
      expect(ok.status).toBe(303);
      expect(ok.html).toContain(SUCCESS.title);
      const failed = await send(url, "Please mock-fail this one, it is a test of the error.");
      expect(failed.status).toBe(502);
      expect(failed.html).toContain(SEND_ERROR.title);
      const timedOut = await send(url, "Please mock-timeout this one, the server gives up.");
      expect(timedOut.status).toBe(504);
      expect(timedOut.html).toContain(SEND_ERROR.title);
      expect(dev.output().match(/\[mocks\] send-contact-email called \(mocked\)/g)).toHaveLength(3);
      // Kept in the development data folder, never where the shell pointed.
      const kept = readLeads(join(dir, ".data/dev/leads.sqlite"));
      expect(kept.map((lead) => [lead.message.split(",")[0], lead.state])).toEqual([
        ["Please automate our weekly invoicing run for us. (dev mocks case 1)", "delivered"],
        ["Please mock-fail this one", "pending"],
        ["Please mock-timeout this one", "possibly_delivered"],
      ]);
      expect(existsSync(productionFile)).toBe(false);
      expect(shellFunction.requests).toHaveLength(0);
      expectNoBuildWarnings(dev);

      await stopThroughNpm(dev, "SIGINT", port);
    } finally {
      if (dev.process.exitCode === null) killTree(dev.pid);
    }
    expect(productionBuildFiles(dir)).toEqual(production);

    const refused = runNpm(["start"], {
      cwd: dir,
      env: { ...isolated(dir), REMIX_BUILD_DIR: ".builds/dev", PORT: String(await freePort()) },
    });
    expect((await refused.exited).code).toBe(1);
    expect(refused.ownLines().filter((line) => !line.startsWith("{"))).toEqual([
      "npm start: .builds/dev/index.js is a development build (`npm run dev` makes those): run `npm run build` first.",
    ]);

    const startPort = await freePort();
    const start = runNpm(["start"], {
      cwd: dir,
      env: { ...isolated(dir), PORT: String(startPort), HOST: "127.0.0.1" },
    });
    try {
      await waitForStatus(start, `http://127.0.0.1:${startPort}/healthz`);
      const home = await fetch(`http://127.0.0.1:${startPort}/`);
      expect(home.status).toBe(200);
      const html = await home.text();
      expect(html).toContain('id="hero-heading"');
      expect(html).not.toContain("Edited by the live reload test.");
    } finally {
      killTree(start.pid);
    }
  }, 360_000);
});

describe("the dev test's copy", () => {
  it("holds every source the app is built from", () => {
    for (const name of SOURCES) expect(existsSync(join(root, name)), name).toBe(true);
  });
});
