/**
 * What a cross-engine browser test may ask of a browser: the few things every engine's automation
 * protocol can do (decision 035). Chromium (DevTools protocol) is driven by playwright-core,
 * Firefox (WebDriver BiDi) by puppeteer-core (decision 051), WebKit by WebKitWebDriver (W3C
 * WebDriver); each adapter implements this and nothing else, and the tests (through `VisitorPage`, visitor.ts) are written once.
 */

export type EngineName = "chromium" | "firefox" | "webkit";

export const ENGINE_NAMES: readonly EngineName[] = ["chromium", "firefox", "webkit"];

export interface Viewport {
  width: number;
  height: number;
  /**
   * WebKit lays it out at page zoom 2, where text breaks into lines as on a phone's 2x screen (zoom
   * 1 breaks some differently), as it does any viewport its window cannot reach. Others ignore it.
   */
  zoomed?: boolean;
}

export interface SessionOptions {
  /** Page scripts on or off for the whole session (a visitor who has JavaScript disabled). */
  javaScript: boolean;
  /**
   * The fontconfig file the browser reads (FONTCONFIG_FILE): which fonts it may use. Unset, the
   * test run's default (vitest.config.ts: test/fonts/liberation.conf).
   */
  fonts?: string;
  /**
   * An HTTP proxy (`http://127.0.0.1:<port>`) for every request that does not go to 127.0.0.1 or
   * localhost: a test records where the page tried to go (test/e2e/support/recording-proxy.ts).
   */
  proxy?: string;
}

/** The browser's environment for a session: this process's, with the session's font set. */
export function browserEnv(options: SessionOptions): NodeJS.ProcessEnv {
  return options.fonts ? { ...process.env, FONTCONFIG_FILE: options.fonts } : { ...process.env };
}

/** A key a visitor presses on its own (Shift+Tab moves focus backwards). */
export type Key = "Tab" | "Shift+Tab" | "Enter" | "Escape" | "Space" | "ArrowRight" | "ArrowDown";

/** A function that runs in the page: it is sent as source text, so it may use nothing from outside. */
export type PageFunction<A, R> = (arg: A) => R | Promise<R>;

/** One open browser window of one engine, with page scripts on or off. */
export interface EngineSession {
  readonly engine: EngineName;
  readonly javaScript: boolean;
  /** Sets the layout viewport to exactly this size in CSS pixels (scrollbars included). */
  setViewport(viewport: Viewport): Promise<void>;
  /** Loads the URL and resolves once its `load` event has fired. */
  goto(url: string): Promise<void>;
  /** Runs `fn(arg)` in the page's main world; page scripts off or on, it reads the DOM. */
  evaluate<A, R>(fn: PageFunction<A, R>, arg: A): Promise<R>;
  /**
   * Runs a script's source text (a library the page does not ship: axe-core) in the page's main
   * world, as the driver evaluates its own calls: the page's Content-Security-Policy, which runs
   * only the page's own scripts, does not stop it (each adapter says why).
   */
  runScript(source: string): Promise<void>;
  /** A real pointer click (move, press, release) at viewport coordinates. */
  clickAt(x: number, y: number): Promise<void>;
  /**
   * Half a click: moves the pointer to viewport coordinates and presses its button, which stays
   * down until `pointerUp` (the page goes on meanwhile: a test can change it between the two).
   */
  pointerDown(x: number, y: number): Promise<void>;
  /** Releases the button `pointerDown` pressed, where the pointer is. */
  pointerUp(): Promise<void>;
  /** Real key presses to whatever has focus. */
  press(key: Key): Promise<void>;
  /** Half a key press: the key goes down and stays down until `keyUp` (a key held while the page changes). */
  keyDown(key: Exclude<Key, "Shift+Tab">): Promise<void>;
  /** Releases the key `keyDown` pressed. */
  keyUp(key: Exclude<Key, "Shift+Tab">): Promise<void>;
  /** Types text, key by key, into whatever has focus. */
  type(text: string): Promise<void>;
  /** A PNG of the viewport, or of the first element matching `selector` (scrolled into view). */
  screenshot(file: string, selector?: string): Promise<void>;
  /**
   * What the page wrote to its console and the errors it threw, when the engine lets a client see
   * them (Chromium and Firefox); `null` where it does not (WebKitWebDriver has no log endpoint).
   */
  consoleMessages(): string[] | null;
  close(): Promise<void>;
}

/** Starts sessions of one engine (each adapter's single export). */
export interface EngineLauncher {
  readonly engine: EngineName;
  /** Why this engine cannot run here, or null when it can. */
  missing(): string | null;
  open(options: SessionOptions): Promise<EngineSession>;
}
