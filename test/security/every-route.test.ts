import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

import type { ServerBuild } from "@remix-run/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { CACHE_CONTROL, NON_DOCUMENT_POLICY } from "~/lib/security/headers.server";

import { FRONT_DOOR_PATHS } from "../../server/front-door";

import { type AppServer, startAppServer } from "../support/app-server";
import { browserBuildDir, root, serverBuildDir } from "../support/build-output";
import { wire, type WireResponse } from "../support/wire";
import { validContactForm } from "./html";

/**
 * Issue 19: security and cache headers come from one place that no route can forget. The routes
 * are read from the production build, so a route added tomorrow is requested here too.
 */

const BASELINE = {
  "x-content-type-options": "nosniff",
  "referrer-policy": "strict-origin-when-cross-origin",
  "x-frame-options": "DENY",
  "cross-origin-opener-policy": "same-origin",
  "cross-origin-resource-policy": "same-origin",
};

/** Every value a header was sent with, duplicates kept (node merges them in `headers`). */
function sent(res: WireResponse, name: string): string[] {
  const values: string[] = [];
  for (let i = 0; i < res.rawHeaders.length; i += 2)
    if (res.rawHeaders[i]!.toLowerCase() === name) values.push(res.rawHeaders[i + 1]!);
  return values;
}

function expectHeaders(res: WireResponse, what: string): string {
  for (const [name, value] of Object.entries(BASELINE))
    expect(sent(res, name), `${what}: ${name}`).toEqual([value]);
  expect(sent(res, "permissions-policy"), `${what}: permissions-policy`).toHaveLength(1);
  const policies = sent(res, "content-security-policy");
  expect(policies, `${what}: exactly one Content-Security-Policy`).toHaveLength(1);
  expect(sent(res, "cache-control"), `${what}: exactly one Cache-Control`).toHaveLength(1);
  return policies[0]!;
}

const isDocument = (res: WireResponse) => String(res.headers["content-type"]).startsWith("text/html");

function expectPolicyFor(res: WireResponse, policy: string, what: string) {
  if (isDocument(res)) {
    expect(policy, what).toMatch(/script-src (?:'sha256-[A-Za-z0-9+/]{43}=' )+'strict-dynamic'/);
    expect(policy, what).not.toMatch(/nonce-|unsafe-inline|unsafe-eval/);
  } else {
    expect(policy, what).toBe(NON_DOCUMENT_POLICY);
  }
}

type BuildRoute = ServerBuild["routes"][string];

function urlOf(route: BuildRoute, routes: ServerBuild["routes"]): string {
  const segments: string[] = [];
  for (let at: BuildRoute | undefined = route; at; at = at.parentId ? routes[at.parentId] : undefined)
    if (at.path) segments.unshift(at.path);
  const path = segments
    .join("/")
    .split("/")
    .map((segment) => {
      if (segment === "*") return "any/unknown/page";
      if (segment.startsWith(":")) return "example";
      if (/[*:?()]/.test(segment))
        throw new Error(`route ${route.id}: no example URL for the segment "${segment}"`);
      return segment;
    })
    .filter(Boolean)
    .join("/");
  return `/${path}${route.index ? "?index" : ""}`;
}

/** The single-fetch data URL of a page (Remix v2 `v3_singleFetch`): `/_root.data` for `/`. */
function dataUrlOf(url: string): string {
  const path = new URL(url, "http://x").pathname;
  return path === "/" ? "/_root.data" : `${path.replace(/\/$/, "")}.data`;
}

describe("every route in the build answers with the baseline headers, one policy and a Cache-Control", () => {
  let server: AppServer;
  let routes: ServerBuild["routes"];
  beforeAll(async () => {
    server = await startAppServer({ METRICS_TOKEN: "every-route-token" });
    const build = (await import(pathToFileURL(join(serverBuildDir, "index.js")).href)) as ServerBuild;
    routes = build.routes;
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("reads the routes from the build (the index, the privacy page, the 404 splat and the resource routes at least)", () => {
    const ids = Object.keys(routes);
    for (const id of ["root", "routes/_index", "routes/privacy", "routes/$", "routes/robots[.]txt"])
      expect(ids).toContain(id);
  });

  it("GET and HEAD of each route's URL, and its single-fetch data", async () => {
    const checked: string[] = [];
    for (const route of Object.values(routes)) {
      if (route.id === "root") continue; // a layout: reached through every other route
      const url = urlOf(route, routes);
      const isResource = !("default" in route.module) || route.module.default === undefined;
      for (const method of ["GET", "HEAD"]) {
        const res = await wire(`${server.url}${url}`, "gzip, br", { method });
        const what = `${method} ${url} (${route.id})`;
        expect(res.status, what).toBeLessThan(500);
        expectPolicyFor(res, expectHeaders(res, what), what);
        if (!isResource) expect(isDocument(res), `${what} is a page`).toBe(true);
        checked.push(what);
      }
      if (!isResource) {
        const data = await wire(`${server.url}${dataUrlOf(url)}`, "gzip, br");
        const what = `GET ${dataUrlOf(url)} (${route.id} data)`;
        expect(data.status, what).toBeLessThan(500);
        expect(data.headers["content-type"], what).toMatch(/^text\/x-script/);
        expect(expectHeaders(data, what), what).toBe(NON_DOCUMENT_POLICY);
        // The data is the page's, for every visitor alike: it is cached exactly as the page is.
        const page = await wire(`${server.url}${url}`, "gzip");
        // (The document adds no-transform: it is sent precompressed.)
        const pageCaching = String(page.headers["cache-control"]).replace(/, no-transform$/, "");
        expect(data.headers["cache-control"], what).toBe(pageCaching);
        checked.push(what);
      }
    }
    expect(checked.length).toBeGreaterThanOrEqual(2 * (Object.keys(routes).length - 1));
  });

  it("each route with an action, POSTed as a form with and without JavaScript", async () => {
    const withAction = Object.values(routes).filter((route) => typeof route.module.action === "function");
    expect(withAction.map((route) => route.id)).toContain("routes/_index");
    for (const route of withAction) {
      const url = urlOf(route, routes);
      const body = validContactForm().toString();
      const form = { "content-type": "application/x-www-form-urlencoded" };
      const noJs = await wire(`${server.url}${url}`, "gzip", { method: "POST", headers: form, body });
      expectPolicyFor(noJs, expectHeaders(noJs, `POST ${url}`), `POST ${url}`);
      const dataUrl = `${dataUrlOf(url)}${url.includes("?index") ? "?index" : ""}`;
      const js = await wire(`${server.url}${dataUrl}`, "gzip", { method: "POST", headers: form, body });
      expect(expectHeaders(js, `POST ${dataUrl}`)).toBe(NON_DOCUMENT_POLICY);
      expect(js.headers["cache-control"]).toBe(CACHE_CONTROL.personal);
    }
  });

  it("what the front door answers before Express and Remix: the pages made at build and /healthz, GET and HEAD, over HTTP and HTTPS", async () => {
    for (const path of FRONT_DOOR_PATHS)
      for (const method of ["GET", "HEAD"])
        for (const proto of ["http", "https"]) {
          const res = await wire(`${server.url}${path}`, "gzip, br", {
            method,
            headers: { "x-forwarded-proto": proto },
          });
          const what = `${method} ${path} (${proto})`;
          expect(res.status, what).toBe(200);
          expectPolicyFor(res, expectHeaders(res, what), what);
        }
  });

  it("what Express serves before Remix: a /build asset, every public file, /metrics, a malformed URL", async () => {
    const asset = readdirSync(join(browserBuildDir, "_shared")).find((name) => name.endsWith(".js"));
    expect(asset).toBeDefined();
    const assetRes = await wire(`${server.url}/build/_shared/${asset}`, "gzip");
    expect(assetRes.status).toBe(200);
    expect(expectHeaders(assetRes, "asset")).toBe(NON_DOCUMENT_POLICY);
    expect(assetRes.headers["cache-control"]).toBe(CACHE_CONTROL.asset);

    const publicDir = join(root, "public");
    const files = readdirSync(publicDir).filter((name) => statSync(join(publicDir, name)).isFile());
    expect(files.length).toBeGreaterThan(3);
    for (const name of files) {
      const res = await wire(`${server.url}/${name}`, "gzip");
      expect(res.status, name).toBe(200);
      expect(expectHeaders(res, name), name).toBe(NON_DOCUMENT_POLICY);
      expect(res.headers["cache-control"], name).toBe(CACHE_CONTROL.file);
    }

    const metrics = await wire(`${server.url}/metrics`, "gzip", {
      headers: { authorization: "Bearer every-route-token" },
    });
    expect(metrics.status).toBe(200);
    expect(expectHeaders(metrics, "/metrics")).toBe(NON_DOCUMENT_POLICY);
    expect(metrics.headers["cache-control"]).toBe(CACHE_CONTROL.personal);

    for (const url of ["/%", "/build/%E0%A4%A", "/build/no-such-file.js"]) {
      const res = await wire(`${server.url}${url}`, "gzip");
      expect(res.status, url).toBeGreaterThanOrEqual(400);
      expectPolicyFor(res, expectHeaders(res, url), url);
    }
  });
});
