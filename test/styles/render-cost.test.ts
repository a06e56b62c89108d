import { readFileSync } from "node:fs";

import { describe, expect, it } from "vitest";

import { browserBuildDir, filesUnder, root } from "../support/build-output";

// The stylesheet the production build ships (npm test builds before it runs).
const stylesheets = () => filesUnder(browserBuildDir).filter((path) => path.endsWith(".css"));
const css = () =>
  stylesheets()
    .map((path) => readFileSync(path, "utf8"))
    .join("\n");

describe("the stylesheet is cheap for a phone to apply and to raster (docs/performance.md)", () => {
  it("ships exactly one stylesheet", () => {
    expect(stylesheets()).toHaveLength(1);
  });

  it("draws the glows as gradients: no blur filter and no backdrop filter anywhere", () => {
    const sheet = css();
    expect(sheet).toMatch(/\.glow-accent-400\{background-image:radial-gradient\(closest-side,/);
    // Tailwind writes a blur utility as `--tw-blur:blur(...)` and a backdrop one as `backdrop-filter:`
    // (the transition utilities only name the property, which is harmless).
    expect(sheet).not.toMatch(/blur\(/);
    expect(sheet).not.toMatch(/[{;]\s*(-webkit-)?backdrop-filter\s*:/);
  });

  it("writes theme values into the utilities: no utility resolves a theme variable per element", () => {
    // Only the hand-written rules of app/styles/app.css may read a token through var(); Tailwind's
    // per-element variables (--tw-*) compose shadows, rings and transforms and stay.
    const source = readFileSync(`${root}/app/styles/app.css`, "utf8").replace(/\/\*[\s\S]*?\*\//g, "");
    const variablesRead = (text: string) =>
      new Set(
        [...text.matchAll(/var\((--[\w-]+)/g)]
          .map(([, name = ""]) => name)
          .filter((name) => !name.startsWith("--tw-")),
      );
    expect([...variablesRead(css())].sort()).toEqual([...variablesRead(source)].sort());
    expect(css()).toMatch(/\.text-ink-300\{color:#b9c0d4\}/);
  });
});
