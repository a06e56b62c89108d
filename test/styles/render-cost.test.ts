import { readFileSync } from "node:fs";

import { describe, expect, it } from "vitest";

import { browserBuildDir, filesUnder } from "../support/build-output";

// The stylesheet the production build ships (npm test builds before it runs).
const stylesheets = () => filesUnder(browserBuildDir).filter((path) => path.endsWith(".css"));
const css = () =>
  stylesheets()
    .map((path) => readFileSync(path, "utf8"))
    .join("\n");

describe("the stylesheet costs a phone no extra rasterising (docs/performance.md)", () => {
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
});
