import { appendFileSync, cpSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import { leadStoreEnv } from "../support/app-server";
import { serverBuildDir } from "../support/build-output";
import { root, type ServerProcess, startServer } from "../support/server-process.mjs";

/**
 * The home page is a build artifact (decision 041): `npm start` reads it from `<build>/home/`, or
 * makes it itself, before it listens; when the page cannot be made at all, it refuses to start
 * rather than listen as an instance a load balancer would send visitors to (issue 18).
 */
describe("npm start and the home page the build wrote", () => {
  const copies: string[] = [];
  let server: ServerProcess | undefined;
  const copyOfBuild = () => {
    const copy = join(root, `.builds/test-home-at-start-${process.pid}-${copies.length}`);
    cpSync(serverBuildDir, copy, { recursive: true });
    copies.push(copy);
    return copy;
  };
  // A store of its own, never the checkout's .data/, and no function inherited from the shell.
  const start = (buildDir: string, env: Record<string, string | undefined> = {}) =>
    startServer({
      buildDir,
      readyPath: "/healthz",
      env: {
        SUPABASE_URL: undefined,
        SUPABASE_ANON_KEY: undefined,
        DATABASE_URL: undefined,
        ...leadStoreEnv(),
        ...env,
      },
    });
  afterEach(async () => {
    await server?.stop();
    server = undefined;
    for (const copy of copies.splice(0)) rmSync(copy, { recursive: true, force: true });
  });
  // The settings the build made its page with (the shell's that ran `npm run build`).
  const buildSettings = (build: string) => {
    const { settings } = JSON.parse(readFileSync(join(build, "home", "manifest.json"), "utf8")) as {
      settings: { SITE_URL: string; GA_MEASUREMENT_ID: string | null };
    };
    return { SITE_URL: settings.SITE_URL, GA_MEASUREMENT_ID: settings.GA_MEASUREMENT_ID ?? undefined };
  };
  const homeLines = (log: string) =>
    log
      .split("\n")
      .filter((line) => line.includes('"event":"home_document"'))
      .map((line) => JSON.parse(line) as { page: string; source: string });

  it("serves the files the build wrote, byte for byte, and says so once per page", async () => {
    const build = copyOfBuild();
    server = await start(build, buildSettings(build));
    expect(homeLines(server.output())).toEqual([
      expect.objectContaining({ page: "home", source: "build" }),
      expect.objectContaining({ page: "contact-sent", source: "build" }),
    ]);
    const res = await fetch(`${server.url}/`, { headers: { "accept-encoding": "identity" } });
    expect(Buffer.from(await res.arrayBuffer())).toEqual(readFileSync(join(build, "home", "home.html")));
  });

  it("with another SITE_URL than the build's: makes the page at start, with that address, before listening", async () => {
    server = await start(copyOfBuild(), { SITE_URL: "https://www.example.test" });
    const [home] = homeLines(server.output());
    expect(home?.source).toMatch(/^made at start: SITE_URL differ/);
    const html = await (await fetch(`${server.url}/`)).text();
    expect(html).toContain('<link rel="canonical" href="https://www.example.test/"');
  });

  it("a page file changed after the build is never served: made at start instead", async () => {
    const build = copyOfBuild();
    const file = join(build, "home", "home.html");
    writeFileSync(file, readFileSync(file, "utf8").replace("</body>", "<p>changed by hand</p></body>"));
    server = await start(build, buildSettings(build));
    expect(homeLines(server.output())[0]?.source).toBe(
      "made at start: home/home.html does not match its manifest",
    );
    expect(await (await fetch(`${server.url}/`)).text()).not.toContain("changed by hand");
  });

  it("a build whose home page cannot be rendered (and no usable files): refuses to start, in one line, listening nowhere", async () => {
    const build = copyOfBuild();
    rmSync(join(build, "home"), { recursive: true });
    appendFileSync(
      join(build, "index.js"),
      `\nroutes["routes/_index"] = { ...routes["routes/_index"], module: { ...routes["routes/_index"].module, default: () => { throw new Error("a bug in the home page"); } } };\n`,
    );
    await expect(start(build)).rejects.toThrow(
      /Server exited with 1:[\s\S]*npm start: the home page could not be rendered: GET \/ answered 500, not the page\./,
    );
  });
});
