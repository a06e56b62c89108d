import { readFileSync } from "node:fs";
import { basename } from "node:path";

import { describe, expect, it } from "vitest";

import {
  assetFile,
  COMPILE_HINT,
  evaluationOrder,
  firstVisitScripts,
  readManifest,
  staticImports,
} from "../../scripts/build.mjs";
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

describe("the order the paint-first loader evaluates the first visit's modules in (decision 036)", () => {
  const manifest = {
    entry: { module: "/build/entry.js", imports: ["/build/_shared/router.js", "/build/_shared/react.js"] },
    routes: {
      root: { module: "/build/root.js", imports: ["/build/_shared/ui.js"] },
      "routes/_index": { module: "/build/routes/_index.js", imports: ["/build/_shared/ui.js"] },
      "routes/$": { module: "/build/routes/$.js" },
    },
    version: "1",
    url: "/build/manifest-1.js",
  };
  const imports: Record<string, string[]> = {
    "/build/entry.js": ["/build/_shared/router.js", "/build/_shared/react.js"],
    "/build/_shared/router.js": ["/build/_shared/react.js"],
    "/build/_shared/ui.js": ["/build/_shared/react.js"],
    "/build/root.js": ["/build/_shared/ui.js", "/build/_shared/router.js"],
    "/build/routes/_index.js": ["/build/_shared/ui.js"],
  };

  it("puts every module after the modules it imports, and leaves the entry to Remix's bootstrap", () => {
    expect(evaluationOrder(manifest, (url: string) => imports[url] ?? [])).toEqual([
      "/build/_shared/react.js",
      "/build/_shared/router.js",
      "/build/_shared/ui.js",
      "/build/root.js",
      "/build/routes/_index.js",
    ]);
  });

  it("reads a built module's static imports, not its dynamic ones", () => {
    const code =
      'import{a as b}from"/build/_shared/chunk-A.js";import"/build/_shared/chunk-B.js";' +
      'export{c}from "/build/_shared/chunk-C.js";var x=()=>import("/build/_shared/lazy.js");';
    expect(staticImports(code)).toEqual([
      "/build/_shared/chunk-A.js",
      "/build/_shared/chunk-B.js",
      "/build/_shared/chunk-C.js",
    ]);
  });

  it("is written into the production build's loader: every first-visit module but the entry, after its imports", () => {
    const built = readManifest(dirs);
    const loader = readFileSync(`${serverBuildDir}/paint-first.js`, "utf8");
    const order = JSON.parse(/(\["\/build\/[^\]]*\])/.exec(loader)![1]!) as string[];
    expect(new Set(order)).toEqual(
      new Set(firstVisitScripts(built).filter((url) => url !== built.entry.module)),
    );
    for (const [index, url] of order.entries())
      for (const dependency of staticImports(readFileSync(assetFile(url, dirs), "utf8")))
        expect(order.indexOf(dependency), `${dependency} before ${url}`).toBeLessThan(index);
  });
});
