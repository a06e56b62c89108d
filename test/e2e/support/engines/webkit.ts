/**
 * WebKit: Debian's WebKitWebDriver driving WebKitGTK's MiniBrowser on a private Xvfb display (decision
 * 035), through selenium-webdriver connected to a driver we start (`usingServer`: no Selenium Manager,
 * no download). What stays ours is the process care:
 *
 * - A session start can wait forever (no MiniBrowser came up): past a deadline the whole process tree
 *   is killed (selenium's DriverService would end the driver alone) and the start fails, never retried.
 * - MiniBrowser's window cannot be narrower than 334 px. Narrower viewports, and `zoomed` ones, run at
 *   GTK's text scale 2 (`GDK_DPI_SCALE=2`), which WebKitGTK applies as a page zoom (a 640 px window
 *   lays out a 320 CSS px viewport); the session restarts when a viewport needs the other scale.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { Builder, Capabilities, Key as SeleniumKey, Origin, type WebDriver } from "selenium-webdriver";
import { NoSuchSessionError } from "selenium-webdriver/lib/error";

import { findWebKit } from "../../../../scripts/engines.mjs";
import { DeadlineError, treeActivity, withDeadline as deadline } from "../../../support/deadline";
import { isAlive, signalTree } from "../../../support/npm";
import { freePort } from "../../../support/ports";
import {
  browserEnv,
  type EngineLauncher,
  type EngineSession,
  type Key,
  type SessionOptions,
  type Viewport,
} from "./driver";

/** How long a session start may take (the test of the deadline shortens it). */
export interface StartPolicy {
  deadlineMs: number;
}
const START_POLICY: StartPolicy = { deadlineMs: 60_000 };
const COMMAND_DEADLINE_MS = 30_000;
const NARROWEST_WINDOW = 334;

const KEYS: Record<Exclude<Key, "Shift+Tab">, string> = {
  Tab: SeleniumKey.TAB,
  Enter: SeleniumKey.ENTER,
  Escape: SeleniumKey.ESCAPE,
  Space: " ",
  ArrowRight: SeleniumKey.ARROW_RIGHT,
  ArrowDown: SeleniumKey.ARROW_DOWN,
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The command's result, or an error once `ms` have passed (a hung driver never answers). */
const withDeadline = <T>(what: string, promise: Promise<T>, ms = COMMAND_DEADLINE_MS): Promise<T> =>
  deadline(`WebKit: ${what}`, promise, ms);

/** When a process started (clock ticks after boot, field 22 of its stat), or undefined once gone. */
function startTime(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
  } catch {
    return undefined;
  }
}

/**
 * Kills `child`'s tree (frozen first, as test/support/npm.ts's `killTree`, so a fork leaves no orphan)
 * and returns once none of it runs: a SIGKILL takes effect only when the kernel next runs the process.
 */
async function killTree(child: ChildProcess | undefined): Promise<void> {
  if (!child?.pid || child.exitCode !== null || child.signalCode !== null) return;
  // Each process with its start time, taken while it is stopped: a number the kernel gives to a
  // new process once this one is reaped is not waited for.
  const frozen = signalTree(child.pid, "SIGSTOP").map((pid) => [pid, startTime(pid)] as const);
  for (const [pid] of frozen) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
  // Ended: gone, or a zombie (nothing of it runs; its parent or init reaps it).
  const running = () => frozen.filter(([pid, started]) => isAlive(pid) && startTime(pid) === started);
  const deadline = Date.now() + 10_000;
  while (running().length > 0) {
    if (Date.now() > deadline)
      throw new Error(
        `still running 10 s after SIGKILL: ${running()
          .map(([pid]) => pid)
          .join(", ")}`,
      );
    await sleep(10);
  }
}

/** A private X display for MiniBrowser, chosen by Xvfb itself (`-displayfd`). */
async function startXvfb(binary: string): Promise<{ process: ChildProcess; display: string }> {
  const xvfb = spawn(binary, ["-displayfd", "3", "-screen", "0", "2600x1800x24", "-nolisten", "tcp"], {
    stdio: ["ignore", "ignore", "pipe", "pipe"],
  });
  const display = await new Promise<string>((resolve, reject) => {
    let text = "";
    const timer = setTimeout(() => reject(new Error("Xvfb did not start within 10 s")), 10_000);
    xvfb.stdio[3]!.on("data", (chunk: Buffer) => {
      text += chunk.toString();
      if (text.includes("\n")) {
        clearTimeout(timer);
        resolve(`:${text.trim()}`);
      }
    });
    xvfb.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`Xvfb exited (${code}) before it was ready`));
    });
  });
  return { process: xvfb, display };
}

interface Driver {
  process: ChildProcess;
  url: string;
  /** The driver's (and its browser's) last output, for a failure's message. */
  output(): string;
}

/**
 * WebKitWebDriver on a port of this worker's block, once it answers /status. The wait ends when it
 * answers or exits (its last output in the error), or after 30 s: a limit for a driver that never
 * listens, not a measure of the machine's speed.
 */
async function startDriver(binary: string, env: NodeJS.ProcessEnv): Promise<Driver> {
  const port = await freePort();
  const driver = spawn(binary, [`--port=${port}`, "--host=127.0.0.1"], {
    stdio: ["ignore", "pipe", "pipe"],
    env,
  });
  let output = "";
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-2_000));
  driver.stdout!.on("data", keep);
  driver.stderr!.on("data", keep);
  let exited: string | null = null;
  driver.once("exit", (code, signal) => (exited = `exited (${signal ?? code})`));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  while (exited === null && Date.now() < deadline) {
    try {
      const response = await fetch(`${url}/status`, { signal: AbortSignal.timeout(1_000) });
      if (response.ok) return { process: driver, url, output: () => output.trim() || "no output" };
    } catch {
      // Not listening yet.
    }
    await sleep(50);
  }
  await killTree(driver);
  throw new Error(
    `WebKitWebDriver on port ${port} ${exited ?? "did not answer /status within 30 s"}: ${output.trim() || "no output"}`,
  );
}

interface Running {
  driver: Driver;
  client: WebDriver;
  zoom: 1 | 2;
}

class WebKitSession implements EngineSession {
  readonly engine = "webkit" as const;
  private running: Running | null = null;

  constructor(
    readonly javaScript: boolean,
    private readonly fonts: string | undefined,
    private readonly paths: { driver: string; browser: string },
    private readonly policy: StartPolicy,
    private readonly xvfb: { process: ChildProcess; display: string },
    private readonly configHome: string,
    private readonly proxy: string | undefined = undefined,
  ) {}

  async start(zoom: 1 | 2): Promise<void> {
    const env: NodeJS.ProcessEnv = {
      ...browserEnv({ javaScript: this.javaScript, fonts: this.fonts }),
      DISPLAY: this.xvfb.display,
      XDG_CONFIG_HOME: this.configHome,
      ...(zoom === 2 ? { GDK_DPI_SCALE: "2" } : {}),
      // No GPU here: compositing would run every frame through Mesa's software OpenGL, and CPU bounds
      // the run (issue 39). Layout, hit testing and painting are WebKit's own either way.
      WEBKIT_DISABLE_COMPOSITING_MODE: "1",
    };
    delete env.WEBKIT_INSPECTOR_HTTP_SERVER; // a session started with it never returns
    const capabilities = new Capabilities({
      browserName: "MiniBrowser",
      pageLoadStrategy: "normal",
      "webkitgtk:browserOptions": {
        binary: this.paths.browser,
        args: [
          "--automation",
          "--full-screen",
          ...(this.javaScript ? [] : ["--enable-javascript=false"]),
          // WebKitGTK proxies loopback too unless told: the app stays direct.
          ...(this.proxy
            ? [`--proxy=${this.proxy}`, "--ignore-host=127.0.0.1", "--ignore-host=localhost"]
            : []),
        ],
      },
    });
    const driver = await startDriver(this.paths.driver, env);
    // Our own driver, never SELENIUM_REMOTE_URL or a driver Selenium Manager would look for.
    const client = new Builder()
      .disableEnvironmentOverrides()
      .usingServer(driver.url)
      .withCapabilities(capabilities)
      .build();
    const session = client.getSession();
    session.catch(() => undefined); // settles only once its driver is killed, after the deadline
    // The client is itself a promise of the session: a failed start must not be left unhandled.
    client.catch(() => undefined);
    try {
      await withDeadline("the session start", session, this.policy.deadlineMs);
    } catch (error) {
      await killTree(driver.process);
      throw new Error(`${String(error)}; WebKitWebDriver said: ${driver.output()}`);
    }
    this.running = { driver, client, zoom };
  }

  private get client(): WebDriver {
    if (!this.running) throw new Error("WebKit session is not running");
    return this.running.client;
  }

  async setViewport(viewport: Viewport): Promise<void> {
    const zoom = viewport.zoomed || viewport.width < NARROWEST_WINDOW ? 2 : 1;
    if (this.running?.zoom !== zoom) {
      await this.stop();
      await this.start(zoom);
    }
    // The window in screen pixels: the viewport times the zoom (no toolbar, no borders on Xvfb).
    const browserWindow = this.client.manage().window();
    for (let round = 0; round < 4; round += 1) {
      const inner = await this.evaluate(() => [window.innerWidth, window.innerHeight] as const, undefined);
      if (inner[0] === viewport.width && inner[1] === viewport.height) return;
      const rect = await withDeadline("the window's size", browserWindow.getRect());
      await withDeadline(
        "resizing the window",
        browserWindow.setRect({
          width: Math.round(rect.width + (viewport.width - inner[0]) * zoom),
          height: Math.round(rect.height + (viewport.height - inner[1]) * zoom),
        }),
      );
      await sleep(50);
    }
    const inner = await this.evaluate(() => [window.innerWidth, window.innerHeight], undefined);
    throw new Error(`WebKit: viewport ${inner.join("×")} instead of ${viewport.width}×${viewport.height}`);
  }

  async goto(url: string): Promise<void> {
    if (!this.running) await this.start(1);
    await withDeadline(`loading ${url}`, this.client.get(url));
  }

  async evaluate<A, R>(fn: (arg: A) => R | Promise<R>, arg: A): Promise<R> {
    const script = `const done = arguments[arguments.length - 1];
      Promise.resolve().then(() => (${fn.toString()})(arguments[0]))
        .then((value) => done({ value }), (error) => done({ error: String(error && error.stack || error) }));`;
    const result = await withDeadline(
      `the page function ${fn.toString().replace(/\s+/g, " ").slice(0, 100)}`,
      this.client.executeAsyncScript<{ value?: R; error?: string }>(script, arg ?? null),
    ).catch(async (error: Error) => {
      // A hung or lost session would fail every later test of the file: the next one starts a fresh
      // browser. Any other error (a page between two documents) leaves the session to the caller.
      if (!(error instanceof DeadlineError || error instanceof NoSuchSessionError)) throw error;
      const driver = this.running?.driver.process.pid;
      // Idle processes and a hidden page: its timers and frames were held back (issue 54).
      const state = "return `${document.visibilityState}, focus ${document.hasFocus()}`";
      const seen = await withDeadline("the page", this.client.executeScript(state), 5_000).catch(String);
      const processes = driver ? await treeActivity(driver) : "gone";
      error.message += ` (the page: ${seen}; the driver's processes: ${processes})`;
      await this.stop();
      throw error;
    });
    if (result.error) throw new Error(`WebKit: page function threw: ${result.error}`);
    return result.value as R;
  }

  /** Through WebDriver's Execute Script, never a <script> element the page's policy would refuse. */
  async runScript(source: string): Promise<void> {
    await withDeadline("a script", this.client.executeScript(source));
  }

  /** Actions take CSS pixels of the viewport; under page zoom WebKit wants them in window pixels. */
  private pointerAt(x: number, y: number) {
    const zoom = this.running?.zoom ?? 1;
    return this.client
      .actions({ async: true })
      .move({ x: Math.round(x * zoom), y: Math.round(y * zoom), origin: Origin.VIEWPORT, duration: 0 });
  }

  async pointerMove(x: number, y: number): Promise<void> {
    await withDeadline("a pointer move", this.pointerAt(x, y).perform());
  }

  async clickAt(x: number, y: number): Promise<void> {
    const actions = this.pointerAt(x, y);
    await withDeadline("a click", actions.press().release().perform());
    await withDeadline("releasing the pointer", actions.clear());
  }

  async pointerDown(x: number, y: number): Promise<void> {
    await withDeadline("a pointer press", this.pointerAt(x, y).press().perform());
  }

  /** The driver keeps pressed buttons and keys between action lists (WebDriver's input state). */
  async pointerUp(): Promise<void> {
    const actions = this.client.actions({ async: true });
    await withDeadline("a pointer release", actions.release().perform());
    await withDeadline("releasing the pointer", actions.clear());
  }

  async press(key: Key): Promise<void> {
    const keys = key === "Shift+Tab" ? [SeleniumKey.SHIFT, KEYS.Tab] : [KEYS[key]];
    const actions = this.client.actions({ async: true });
    for (const value of keys) actions.keyDown(value);
    for (const value of [...keys].reverse()) actions.keyUp(value);
    await withDeadline(`pressing ${key}`, actions.perform());
    await withDeadline("releasing the keys", actions.clear());
  }
  async keyDown(key: Exclude<Key, "Shift+Tab">): Promise<void> {
    await withDeadline(`holding ${key}`, this.client.actions({ async: true }).keyDown(KEYS[key]).perform());
  }

  async keyUp(key: Exclude<Key, "Shift+Tab">): Promise<void> {
    const actions = this.client.actions({ async: true });
    await withDeadline(`releasing ${key}`, actions.keyUp(KEYS[key]).perform());
    await withDeadline("releasing the keys", actions.clear());
  }

  async type(text: string): Promise<void> {
    const actions = this.client.actions({ async: true });
    for (const value of Array.from(text)) actions.keyDown(value).keyUp(value);
    await withDeadline("typing", actions.perform());
    await withDeadline("releasing the keys", actions.clear());
  }

  /** The viewport, element at its top: WebKitWebDriver's element screenshot of a tall one is blank. */
  async screenshot(file: string, selector?: string): Promise<void> {
    if (selector) {
      const found = await this.evaluate((sel) => {
        const element = document.querySelector(sel);
        element?.scrollIntoView({ block: "start", behavior: "instant" });
        return Boolean(element);
      }, selector);
      if (!found) throw new Error(`webkit: no ${selector} to screenshot`);
    }
    writeFileSync(
      file,
      Buffer.from(await withDeadline("a screenshot", this.client.takeScreenshot()), "base64"),
    );
  }

  consoleMessages(): null {
    return null;
  }

  private async stop(): Promise<void> {
    if (!this.running) return;
    const { driver, client } = this.running;
    this.running = null;
    await withDeadline("ending the session", client.quit(), 5_000).catch(() => undefined);
    await killTree(driver.process);
  }

  async close(): Promise<void> {
    await this.stop();
    await killTree(this.xvfb.process);
  }
}

/** `override`: for the test of the start's deadline, which gives it a browser that never starts. */
export function webkitLauncher(override: { browser?: string; policy?: StartPolicy } = {}): EngineLauncher {
  // GTK's own settings for MiniBrowser (an empty folder: no user's settings leak into a test).
  const configHome = mkdtempSync(join(tmpdir(), "webkit-gtk-"));
  return {
    engine: "webkit",
    missing() {
      const found = findWebKit();
      return found.driver && found.browser && found.xvfb ? null : found.reason;
    },
    async open(options: SessionOptions) {
      const found = findWebKit();
      if (!found.driver || !found.browser || !found.xvfb) throw new Error(`No WebKit: ${found.reason}`);
      const xvfb = await startXvfb(found.xvfb);
      const session = new WebKitSession(
        options.javaScript,
        options.fonts,
        { driver: found.driver, browser: override.browser ?? found.browser },
        override.policy ?? START_POLICY,
        xvfb,
        configHome,
        options.proxy,
      );
      try {
        await session.start(1);
      } catch (error) {
        await killTree(xvfb.process);
        throw error;
      }
      return session;
    },
  };
}
