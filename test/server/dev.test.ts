import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { describeBrowser, launchChromium } from "../e2e/support/browser";
import {
  descendantsOf,
  isAlive,
  isListening,
  listeningAddresses,
  type NpmRun,
  runNpm,
  waitFor,
  waitForStatus,
} from "../support/npm";
import { freePort } from "../support/ports";
import { root } from "../support/server-process.mjs";

/**
 * `npm run dev` as a developer meets it, on a checkout of its own (a copy of the project's
 * sources sharing node_modules), so that editing files and building never touch this one:
 * dev builds into its own folder, `npm start` afterwards serves the production build, live
 * reload brings an edit to the open page, and a signal to npm's PID leaves nothing behind.
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

const isolated = (dir: string) => ({
  REMIX_BUILD_DIR: undefined,
  HOST: undefined,
  SUPABASE_URL: undefined,
  SUPABASE_ANON_KEY: undefined,
  MOCKS: undefined,
  DATABASE_URL: undefined,
  // The lead store of this copy, and the previous release's files (imported once if present) there too.
  LEADS_DATABASE_FILE: join(dir, ".data/leads.sqlite"),
  CONTACT_INBOX_FILE: join(dir, ".data/inbox.jsonl"),
  CONTACT_UNDELIVERED_FILE: join(dir, ".data/undelivered.jsonl"),
});

async function stopThroughNpm(run: NpmRun, signal: NodeJS.Signals, port: number): Promise<void> {
  const processes = descendantsOf(run.pid);
  expect(processes.length).toBeGreaterThan(0);
  process.kill(run.pid, signal);
  expect(await run.exited).toEqual({ code: 0, signal: null });
  expect(await isListening(port)).toBe(false);
  await waitFor("every process npm started to end", () => processes.every((pid) => !isAlive(pid)), 10_000);
}

describeBrowser("npm run dev", () => {
  let dir: string;
  let browser: Browser;

  beforeAll(async () => {
    dir = checkoutCopy();
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("builds into .builds/dev only, listens on 127.0.0.1, reloads the open page on an edit of content or a component, stops on SIGTERM to npm", async () => {
    const port = await freePort();
    const dev = runNpm(["run", "dev"], { cwd: dir, env: { ...isolated(dir), PORT: String(port) } });
    try {
      const url = `http://127.0.0.1:${port}`;
      await waitForStatus(dev, `${url}/`);
      expect(existsSync(join(dir, ".builds/dev/index.js"))).toBe(true);
      expect(existsSync(join(dir, "build"))).toBe(false);
      expect(existsSync(join(dir, "public/build"))).toBe(false);
      // 7F000001 is 127.0.0.1: no socket on any other address.
      expect(listeningAddresses(port)).toEqual(["0100007F"]);

      const page = await browser.newPage();
      await page.goto(`${url}/`);
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

      await stopThroughNpm(dev, "SIGTERM", port);
    } finally {
      if (dev.process.exitCode === null)
        for (const pid of [dev.pid, ...descendantsOf(dev.pid)]) process.kill(pid, "SIGKILL");
    }
  }, 240_000);

  it("npm start after npm run dev serves the production build; a development build is refused in one line; SIGINT stops dev", async () => {
    const noBuild = runNpm(["start"], {
      cwd: dir,
      env: { ...isolated(dir), PORT: String(await freePort()) },
    });
    expect((await noBuild.exited).code).toBe(1);
    expect(noBuild.ownLines()).toEqual([
      "npm start: no production build (build/index.js is missing): run `npm run build` first.",
    ]);

    const build = runNpm(["run", "build"], { cwd: dir, env: isolated(dir) });
    expect((await build.exited).code, build.output()).toBe(0);

    const devPort = await freePort();
    const dev = runNpm(["run", "dev"], { cwd: dir, env: { ...isolated(dir), PORT: String(devPort) } });
    await waitForStatus(dev, `http://127.0.0.1:${devPort}/`);
    await stopThroughNpm(dev, "SIGINT", devPort);

    const refused = runNpm(["start"], {
      cwd: dir,
      env: { ...isolated(dir), REMIX_BUILD_DIR: ".builds/dev", PORT: String(await freePort()) },
    });
    expect((await refused.exited).code).toBe(1);
    expect(refused.ownLines().filter((line) => !line.startsWith("{"))).toEqual([
      "npm start: .builds/dev/index.js is a development build (`npm run dev` makes those): run `npm run build` first.",
    ]);

    const port = await freePort();
    const start = runNpm(["start"], {
      cwd: dir,
      env: { ...isolated(dir), PORT: String(port), HOST: "127.0.0.1" },
    });
    try {
      await waitForStatus(start, `http://127.0.0.1:${port}/healthz`);
      const home = await fetch(`http://127.0.0.1:${port}/`);
      expect(home.status).toBe(200);
      expect(await home.text()).toContain('id="hero-heading"');
      await stopThroughNpm(start, "SIGTERM", port);
    } finally {
      if (start.process.exitCode === null)
        for (const pid of [start.pid, ...descendantsOf(start.pid)]) process.kill(pid, "SIGKILL");
    }
  }, 240_000);
});

describe("the dev test's copy", () => {
  it("holds every source the app is built from", () => {
    for (const name of SOURCES) expect(existsSync(join(root, name)), name).toBe(true);
  });
});
