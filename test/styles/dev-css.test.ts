import { readFileSync } from "node:fs";
import { join } from "node:path";

import tailwind from "@tailwindcss/postcss";
import { transform } from "esbuild";
import postcss from "postcss";
import { describe, expect, it } from "vitest";

import config from "../../postcss.config.js";
import { root } from "../support/server-process.mjs";

/**
 * `npm run dev` compiles app/styles/app.css unminified and the Remix compiler's esbuild (0.17) reads
 * it: it warns on nested `:where(& > …)` rules such as `@apply space-y-*` writes (issue 24).
 * test/server/dev.test.ts checks the output of a real `npm run dev` too.
 */

const from = join(root, "app/styles/app.css");

async function compile(optimize: boolean): Promise<string> {
  const plugins = await Promise.all(
    Object.entries(config.plugins).map(async ([name, options]) =>
      name === "@tailwindcss/postcss"
        ? tailwind({ ...options, optimize })
        : ((await import(name)) as { default: (o: unknown) => postcss.AcceptedPlugin }).default(options),
    ),
  );
  return (await postcss(plugins).process(readFileSync(from, "utf8"), { from })).css;
}

describe("app/styles/app.css through the Remix compiler's esbuild", () => {
  for (const [build, optimize] of [
    ["development (unminified, what npm run dev compiles)", false],
    ["production (minified)", true],
  ] as const) {
    it(`${build}: no warning`, async () => {
      const css = await compile(optimize);
      expect(css.length).toBeGreaterThan(10_000);
      const { warnings } = await transform(css, { loader: "css" });
      expect(warnings.map((w) => `${w.id ?? ""} ${w.text} (line ${w.location?.line})`)).toEqual([]);
    });
  }

  it("is a check that sees the warning the nested space-y rule caused", async () => {
    const { warnings } = await transform(".a { :where(& > :not(:last-child)) { margin: 0 } }", {
      loader: "css",
    });
    expect(warnings.map((w) => w.text)).toContain('Expected identifier but found ":"');
  });
});
