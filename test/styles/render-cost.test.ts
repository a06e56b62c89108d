import { readFileSync } from "node:fs";

import { createElement } from "react";

import { describe, expect, it } from "vitest";

import { Icon } from "~/components/Icon";
import icons from "~/styles/icons.json";
import { renderToStaticMarkup } from "react-dom/server";

import { cellPosition } from "../../scripts/make-icons.mjs";
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
    // Only the hand-written rules of app/styles/ (app.css, icons.css) may read a token through
    // var(); Tailwind's per-element variables (--tw-*) compose shadows, rings and transforms and stay.
    const source = ["app.css", "icons.css"]
      .map((name) => readFileSync(`${root}/app/styles/${name}`, "utf8"))
      .join("\n")
      .replace(/\/\*[\s\S]*?\*\//g, "");
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

describe("icons are drawn by the stylesheet, not by the document (decision 036)", () => {
  it("ships one mask image for every icon, each icon a cell of it", () => {
    const sheet = css();
    const names = Object.keys(icons);
    const strip = /\.icon\{[^}]*mask-image:url\("data:image\/svg\+xml,([^"]*)"\)/.exec(sheet);
    expect(strip).not.toBeNull();
    // `#` would end a URL, `<` and `"` the value: the markup inside is percent-encoded.
    expect(strip![1]).not.toMatch(/[#<>"]/);
    expect(decodeURIComponent(strip![1]!).match(/<path /g)).toHaveLength(names.length);
    expect(sheet.match(/data:image\/svg\+xml/g), "one SVG image for every icon").toHaveLength(
      sheet.includes("-webkit-mask-image") ? 2 : 1,
    );
    for (const [index, name] of names.entries()) {
      // The minifier writes 0% as 0, and the prefixed property first.
      const position = cellPosition(index, names.length).replace(/^0%$/, "0");
      expect(sheet, name).toMatch(new RegExp(`\\.icon-${name}\\{[^}]*[{;]mask-position:${position} 0\\}`));
    }
  });

  it("renders an icon as one empty, hidden box: no SVG element in the document", () => {
    const markup = renderToStaticMarkup(
      createElement(Icon, { name: "check", className: "size-5 text-accent-400" }),
    );
    expect(markup).toBe('<span aria-hidden="true" class="icon icon-check size-5 text-accent-400"></span>');
  });
});
