import { readFileSync } from "node:fs";

import { describe, expect, it } from "vitest";

import icons from "~/styles/icons.json";

import {
  cellPosition,
  formattedIconsCss,
  ICONS_CSS,
  iconStrip,
  iconsCss,
  svgDataUrl,
} from "../../scripts/make-icons.mjs";

// The icons' stylesheet is generated from icons.json (scripts/make-icons.mjs, decision 036).

describe("the icon strip", () => {
  it("app/styles/icons.css is what `npm run icons` writes from icons.json", async () => {
    expect(readFileSync(ICONS_CSS, "utf8")).toBe(await formattedIconsCss());
  });

  it("puts each path in its own 24 px cell, in the table's order, and each icon's mask on its cell", () => {
    const paths = { a: "M1 1h2", b: "M3 3v4", c: "M5 5z" };
    expect(iconStrip(paths)).toBe(
      "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 72 24' fill='none' stroke='black' " +
        "stroke-width='1.75' stroke-linecap='round' stroke-linejoin='round'>" +
        "<path transform='translate(0)' d='M1 1h2'/><path transform='translate(24)' d='M3 3v4'/>" +
        "<path transform='translate(48)' d='M5 5z'/></svg>",
    );
    expect([0, 1, 2].map((index) => cellPosition(index, 3))).toEqual(["0%", "50%", "100%"]);
    const css = iconsCss(paths);
    expect(css).toContain("mask-size: 300% 100%;");
    expect(css).toContain(".icon-b { mask-position: 50% 0; }");
  });

  it("writes a data URL a stylesheet can hold: no raw <, >, # or %", () => {
    expect(svgDataUrl("<svg a='#1 50%'></svg>")).toBe(
      "data:image/svg+xml,%3Csvg a='%231 50%25'%3E%3C/svg%3E",
    );
  });

  it("draws every icon on the 24 px grid, as one path", () => {
    for (const [name, d] of Object.entries(icons)) expect(d, name).toMatch(/^M[\d\s.,A-Za-z-]+$/);
  });
});
