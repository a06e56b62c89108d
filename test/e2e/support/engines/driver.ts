/**
 * What a cross-engine test may ask of a browser: the few things every engine's automation protocol
 * can do (decision 035). Chromium via playwright-core, Firefox via puppeteer-core (decision 051),
 * WebKit via WebKitWebDriver; the tests are written once (visitor.ts).
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
  javaScript: boolean;
  /** The browser's FONTCONFIG_FILE; unset, the run's default (vitest.config.ts). */
  fonts?: string;
  /** An HTTP proxy for every request not to 127.0.0.1 or localhost (recording-proxy.ts). */
  proxy?: string;
}

export function browserEnv(options: SessionOptions): NodeJS.ProcessEnv {
  return options.fonts ? { ...process.env, FONTCONFIG_FILE: options.fonts } : { ...process.env };
}

export type Key = "Tab" | "Shift+Tab" | "Enter" | "Escape" | "Space" | "ArrowRight" | "ArrowDown";

/** A function that runs in the page: it is sent as source text, so it may use nothing from outside. */
export type PageFunction<A, R> = (arg: A) => R | Promise<R>;

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
   * Runs a script's source (axe-core, which the page does not ship) in the page's main world as the
   * driver runs its own calls, so the page's Content-Security-Policy does not stop it.
   */
  runScript(source: string): Promise<void>;
  /** A real pointer move to viewport coordinates, as a hand moves before it presses. */
  pointerMove(x: number, y: number): Promise<void>;
  /** A real pointer click (move, press, release) at viewport coordinates. */
  clickAt(x: number, y: number): Promise<void>;
  /** Half a click: the button stays down until `pointerUp`, and a test can change the page between. */
  pointerDown(x: number, y: number): Promise<void>;
  pointerUp(): Promise<void>;
  /** Real key presses to whatever has focus. */
  press(key: Key): Promise<void>;
  /** Half a key press: the key goes down and stays down until `keyUp` (a key held while the page changes). */
  keyDown(key: Exclude<Key, "Shift+Tab">): Promise<void>;
  keyUp(key: Exclude<Key, "Shift+Tab">): Promise<void>;
  /** Types text, key by key, into whatever has focus. */
  type(text: string): Promise<void>;
  /** A PNG of the viewport, or of the first element matching `selector` (scrolled into view). */
  screenshot(file: string, selector?: string): Promise<void>;
  /** Console output and page errors; `null` in WebKit (WebKitWebDriver has no log endpoint). */
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
