import type { EntryContext, ServerBuild } from "@remix-run/node";
import { createRequestHandler } from "@remix-run/node";
import { Outlet, RemixServer, Scripts } from "@remix-run/react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";

import { holdScriptsUntilPaint, moveTrailingMarkupIntoBody } from "~/lib/document/markup.server";
import { HELD_SCRIPTS_ID } from "~/lib/document/paint-first";

/**
 * The paint-first step (decision 022) rewrites what Remix's `<Scripts>` writes: this renders the installed
 * Remix's real `<Scripts>` on a one-route app with this project's future flags, so that an upgrade that
 * changes the markup fails here and not in a visitor's browser.
 */
function Layout() {
  return (
    <html lang="en">
      <head />
      <body>
        <Outlet />
        <Scripts />
      </body>
    </html>
  );
}

function handleRequest(request: Request, status: number, headers: Headers, context: EntryContext) {
  const html = `<!DOCTYPE html>${renderToString(<RemixServer context={context} url={request.url} />)}`;
  headers.set("Content-Type", "text/html");
  return new Response(html, { status, headers });
}

const route = (module: string, extra: object = {}) => ({
  id: "root",
  parentId: undefined,
  path: "",
  index: undefined,
  caseSensitive: undefined,
  module,
  imports: ["/build/_shared/react.js"],
  hasAction: false,
  hasLoader: true,
  hasClientAction: false,
  hasClientLoader: false,
  hasErrorBoundary: false,
  ...extra,
});

const build = {
  mode: "production",
  entry: { module: { default: handleRequest } },
  routes: {
    root: {
      id: "root",
      path: "",
      module: { default: Layout, loader: () => ({ greeting: "hello </script> <!--" }) },
    },
    "routes/_index": {
      id: "routes/_index",
      parentId: "root",
      index: true,
      module: { default: () => <main>page</main> },
    },
  },
  assets: {
    entry: { module: "/build/entry.client.js", imports: ["/build/_shared/react.js"] },
    routes: {
      root: route("/build/root.js"),
      "routes/_index": route("/build/routes/_index.js", {
        id: "routes/_index",
        parentId: "root",
        path: undefined,
        index: true,
        hasLoader: false,
      }),
    },
    url: "/build/manifest-TEST.js",
    version: "test",
  },
  publicPath: "/build/",
  assetsBuildDirectory: "public/build",
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    v3_singleFetch: true,
    v3_lazyRouteDiscovery: true,
  },
  isSpaMode: false,
} as unknown as ServerBuild;

async function renderedDocument(): Promise<string> {
  const response = await createRequestHandler(build, "production")(new Request("http://localhost/"));
  expect(response.status).toBe(200);
  return moveTrailingMarkupIntoBody(await response.text());
}

describe("the markup Remix's <Scripts> writes", () => {
  it("is what the paint-first step holds: every preload and the module bootstrap, nothing left behind", async () => {
    const html = await renderedDocument();
    const held = holdScriptsUntilPaint(html, "loader()");

    expect(held.moduleSource).toContain('"/build/entry.client.js"');
    // The route manifest Remix pretty-prints, held as the same object in compact JSON.
    const written = /window\.__remixManifest = (\{[\s\S]*?\n\});/.exec(html)?.[1];
    expect(written, "Remix's manifest as it writes it").toBeDefined();
    expect(held.moduleSource).toContain(`window.__remixManifest = ${JSON.stringify(JSON.parse(written!))};`);
    expect(held.html).not.toContain('rel="modulepreload"');
    expect(held.html).not.toContain('type="module"');
    const block = new RegExp(
      `<script type="application/json" id="${HELD_SCRIPTS_ID}">([^<]*)</script><script>loader\\(\\)</script>`,
    ).exec(held.html);
    expect(block, held.html).not.toBeNull();
    const data = JSON.parse(block![1]!) as { preloads: string[]; module: string };
    expect(data.module).toBe(held.moduleSource);
    const preloadedByRemix = [...html.matchAll(/<link rel="modulepreload" href="([^"]+)"/g)].map((m) => m[1]);
    expect(data.preloads).toEqual(preloadedByRemix);
    for (const href of ["/build/entry.client.js", "/build/root.js", "/build/routes/_index.js"])
      expect(data.preloads, href).toContain(href);
  });
});
