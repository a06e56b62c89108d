import type { Key } from "./driver";

/** What playwright-core's page (Chromium) and puppeteer-core's (Firefox) share: a mouse, a keyboard. */
export interface DevicePage {
  mouse: {
    click(x: number, y: number): Promise<unknown>;
    move(x: number, y: number): Promise<unknown>;
    down(): Promise<unknown>;
    up(): Promise<unknown>;
  };
  keyboard: {
    press(key: string): Promise<unknown>;
    down(key: string): Promise<unknown>;
    up(key: string): Promise<unknown>;
    type(text: string): Promise<unknown>;
  };
  evaluate(source: string): Promise<unknown>;
  goto(url: string, options: { waitUntil: "load"; timeout: number }): Promise<unknown>;
}

/** Space as a person types it: WebDriver BiDi has no "Space". */
const KEYS: Record<Exclude<Key, "Shift+Tab">, string> = {
  Tab: "Tab",
  Enter: "Enter",
  Escape: "Escape",
  Space: " ",
  ArrowRight: "ArrowRight",
  ArrowDown: "ArrowDown",
};

/** The input and console half of an `EngineSession`, the same through both libraries. */
export abstract class DeviceSession {
  protected readonly messages: string[] = [];

  protected constructor(protected readonly page: DevicePage) {}

  async goto(url: string): Promise<void> {
    await this.page.goto(url, { waitUntil: "load", timeout: 30_000 });
  }

  /** Through the protocol's own evaluation, never a <script> element the page's policy would refuse. */
  async runScript(source: string): Promise<void> {
    await this.page.evaluate(source);
  }

  async pointerMove(x: number, y: number): Promise<void> {
    await this.page.mouse.move(x, y);
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
    if (key !== "Shift+Tab") return void (await this.page.keyboard.press(KEYS[key]));
    await this.page.keyboard.down("Shift");
    await this.page.keyboard.press("Tab");
    await this.page.keyboard.up("Shift");
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

  consoleMessages(): string[] {
    return [...this.messages];
  }
}
