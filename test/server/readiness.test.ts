import { appendFileSync, cpSync, rmSync } from "node:fs";
import { join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { leadStoreEnv } from "../support/app-server";
import { serverBuildDir } from "../support/build-output";
import { root, type ServerProcess, startServer } from "../support/server-process.mjs";

/**
 * Readiness tells the truth (issue 18): when the home document cannot be produced, /healthz
 * answers 503 so that a load balancer takes the instance out. The build served here is the
 * production build with one bug added: the home route's component throws when rendered.
 */
describe("/healthz when the home page cannot be rendered", () => {
  const brokenBuild = join(root, `.builds/test-broken-home-${process.pid}`);
  let server: ServerProcess;

  beforeAll(async () => {
    cpSync(serverBuildDir, brokenBuild, { recursive: true });
    appendFileSync(
      join(brokenBuild, "index.js"),
      `\nroutes["routes/_index"] = { ...routes["routes/_index"], module: { ...routes["routes/_index"].module, default: () => { throw new Error("a bug in the home page"); } } };\n`,
    );
    server = await startServer({
      buildDir: brokenBuild,
      readyPath: "/healthz",
      readyStatus: 503,
      // A store of its own, never the checkout's .data/, and no function inherited from the shell.
      env: {
        SUPABASE_URL: undefined,
        SUPABASE_ANON_KEY: undefined,
        DATABASE_URL: undefined,
        ...leadStoreEnv(),
      },
    });
  });
  afterAll(async () => {
    await server?.stop();
    rmSync(brokenBuild, { recursive: true, force: true });
  });

  it("answers 503 with a short reason, never cached, and keeps saying so", async () => {
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${server.url}/healthz`);
      expect(res.status).toBe(503);
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(await res.json()).toEqual({
        status: "unavailable",
        reason: "the home page could not be rendered",
        contactFunction: { configured: false, mode: "inbox" },
        // The store is fine: it is the page that fails, and only the page decides readiness.
        leadStore: { engine: "sqlite", state: "ready" },
      });
    }
    expect(server.output()).toContain('"event":"home_document_warm_up_failed"');
  });

  it("while GET / fails for visitors", async () => {
    const res = await fetch(`${server.url}/`);
    expect(res.status).toBe(500);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(503);
  });
});
