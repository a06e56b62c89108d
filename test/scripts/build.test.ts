import { readFileSync } from "node:fs";
import { basename } from "node:path";

import { describe, expect, it } from "vitest";

import { assetFile, COMPILE_HINT, firstVisitScripts, readManifest } from "../../scripts/build.mjs";
import { browserBuildDir, browserScripts, serverBuildDir } from "../support/build-output";

const dirs = { serverDir: serverBuildDir, assetsDir: browserBuildDir };

describe("compile hints on the first visit's scripts (decision 022)", () => {
  it("lists the entry, the root and the index route with their imports, once each", () => {
    const scripts = firstVisitScripts({
      entry: { module: "/build/entry.js", imports: ["/build/_shared/react.js", "/build/_shared/router.js"] },
      routes: {
        root: { module: "/build/root.js", imports: ["/build/_shared/react.js"] },
        "routes/_index": { module: "/build/routes/_index.js" },
        "routes/$": { module: "/build/routes/$.js", imports: ["/build/_shared/not-found.js"] },
      },
      version: "1",
      url: "/build/manifest-1.js",
    });
    expect(scripts.sort()).toEqual(
      [
        "/build/entry.js",
        "/build/_shared/react.js",
        "/build/_shared/router.js",
        "/build/root.js",
        "/build/routes/_index.js",
      ].sort(),
    );
  });

  it("the production build starts every first-visit script with the hint, and no other script", () => {
    const manifest = readManifest(dirs);
    const firstVisit = new Set(firstVisitScripts(manifest).map((url) => assetFile(url, dirs)));
    expect(firstVisit.size).toBeGreaterThanOrEqual(5);
    const all = browserScripts().filter((file) => !basename(file).startsWith("manifest-"));
    const lazy = all.filter((file) => !firstVisit.has(file));
    // Radix tooltip, toast and accordion, the validator and the 404 route load later or never.
    expect(lazy.length).toBeGreaterThan(3);
    for (const file of firstVisit)
      expect(readFileSync(file, "utf8").startsWith(COMPILE_HINT), file).toBe(true);
    for (const file of lazy) expect(readFileSync(file, "utf8").includes(COMPILE_HINT), file).toBe(false);
  });
});
