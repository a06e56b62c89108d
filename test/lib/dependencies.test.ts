import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

import { describe, expect, it } from "vitest";

/** Dependencies point one way (docs/architecture.md). */

const root = fileURLToPath(new URL("../../", import.meta.url));

const sources = (dir: string): string[] =>
  readdirSync(join(root, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(root, path)).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });

export function importsOf(text: string): string[] {
  return [...text.matchAll(/(?:from|import)\s*\(?\s*["']([^"']+)["']/g)].map((m) => m[1]!);
}

const offenders = (dir: string, forbidden: RegExp) =>
  sources(dir).flatMap((file) =>
    importsOf(readFileSync(join(root, file), "utf8"))
      .filter((target) => forbidden.test(target))
      .map((target) => `${relative(root, join(root, file))} imports ${target}`),
  );

describe("the direction of dependencies", () => {
  it("leads/ never imports contact/ (the form depends on the leads, not the reverse)", () => {
    expect(offenders("app/lib/leads", /^~\/lib\/contact\b|\.\.\/contact\//)).toEqual([]);
  });

  it("the leads CLI reaches the store and the function through leads/, never the form", () => {
    expect(offenders("cli", /^~\/lib\/contact\b/)).toEqual([]);
  });

  it("lib/ never imports routes or components", () => {
    expect(offenders("app/lib", /^~\/(routes|components)\b/)).toEqual([]);
  });

  it("app/ and cli/ never import server/ (the Node server's own modules)", () => {
    expect([...offenders("app", /(^|\/)server\//), ...offenders("cli", /(^|\/)server\//)]).toEqual([]);
    // The check would see one: the unit tests of server/'s modules import them.
    expect(offenders("test/lib", /(^|\/)server\//).length).toBeGreaterThan(0);
  });

  it("is a check that sees an import, static or dynamic", () => {
    expect(
      importsOf('import type { X } from "~/lib/contact/schema";\nconst m = await import("~/lib/contact/x");'),
    ).toEqual(["~/lib/contact/schema", "~/lib/contact/x"]);
  });
});
