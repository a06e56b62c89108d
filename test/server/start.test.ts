import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import { leadStoreEnv } from "../support/app-server";
import { browserBuildDir, serverBuildDir } from "../support/build-output";
import { type FakeFunction, startFakeFunction } from "../support/fake-function";
import {
  descendantsOf,
  isAlive,
  killTree,
  isListening,
  type NpmRun,
  runNpm,
  waitFor,
  waitForStatus,
} from "../support/npm";
import { readLeads } from "../support/leads";
import { freePort } from "../support/ports";
import { root } from "../support/server-process.mjs";
import { IMPORTING_RELEASE } from "../../server/data-files";

/**
 * `npm start` as ops run it: npm's own PID is what a process manager, a container runtime or a
 * terminal signals, and what must answer for the server (issue 18).
 */

const tmp = (prefix: string) => mkdtempSync(join(tmpdir(), prefix));

/** The controller /privacy names (decision 043): set, so that only the warnings under test are said. */
const CONTROLLER = {
  PRIVACY_CONTROLLER_NAME: "Example Agency LLC",
  PRIVACY_CONTROLLER_ADDRESS: "100 Example Street, Cincinnati, OH 45202, USA",
  PRIVACY_CONTACT_EMAIL: "privacy@example.com",
  // What else /privacy needs (decision 047): set, for the same reason.
  PRIVACY_DPO: "none",
  PRIVACY_HOSTING_PROVIDER: "Example Cloud GmbH",
  PRIVACY_HOSTING_REGION: "Frankfurt, Germany (EU)",
  PRIVACY_DATABASE_PROVIDER: "Example Database Inc.",
  PRIVACY_DATABASE_REGION: "Frankfurt, Germany (EU)",
  PRIVACY_TRANSFER_SAFEGUARDS: "none: every processor keeps the data in the EU",
  PRIVACY_LAST_CHANGED: "2026-12-02",
};

function npmStart(env: Record<string, string | undefined>): NpmRun {
  return runNpm(["start"], {
    env: {
      REMIX_BUILD_DIR: serverBuildDir,
      HOST: "127.0.0.1",
      SUPABASE_URL: undefined,
      SUPABASE_ANON_KEY: undefined,
      METRICS_TOKEN: undefined,
      DATABASE_URL: undefined,
      ...CONTROLLER,
      ...leadStoreEnv(tmp("start-leads-")),
      ...env,
    },
  });
}

const form = () =>
  new URLSearchParams({
    name: "Ada Lovelace",
    email: "ada@example.com",
    message: "Please automate the engine's punch cards, thank you.",
  });

describe("npm start and signals sent to npm's PID", () => {
  let run: NpmRun | undefined;
  let fake: FakeFunction | undefined;
  afterEach(async () => {
    if (run && run.process.exitCode === null) {
      killTree(run.pid);
    }
    await fake?.close();
    run = undefined;
    fake = undefined;
  });

  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    it(`${signal}: a request in flight is answered, then npm exits 0, the port closes and no process is left`, async () => {
      fake = await startFakeFunction();
      const port = await freePort();
      const store = leadStoreEnv(tmp("start-signal-"));
      run = npmStart({
        PORT: String(port),
        SUPABASE_URL: fake.url,
        SUPABASE_ANON_KEY: "signal-key",
        ...store,
      });
      const url = `http://127.0.0.1:${port}`;
      await waitForStatus(run, `${url}/healthz`);
      const processes = descendantsOf(run.pid);
      expect(processes.length).toBeGreaterThan(0);

      fake.setMode({ kind: "slow", delayMs: 1_500 });
      // Not followed: the success page is asked for after the stop, when nothing listens any more.
      const inFlight = fetch(`${url}/?index`, { method: "POST", body: form(), redirect: "manual" });
      await waitFor("the function called", () => fake!.requests.length === 1);
      process.kill(run.pid, signal);

      const res = await inFlight;
      expect(res.status).toBe(303);
      expect(res.headers.get("location")).toBe("/?contact=sent#contact-form");
      expect(await run.exited).toEqual({ code: 0, signal: null });
      expect(await isListening(port)).toBe(false);
      await waitFor(
        "every process npm started to end",
        () => processes.every((pid) => !isAlive(pid)),
        10_000,
      );
      expect(run.output()).toContain(`"event":"shutdown","signal":"${signal}"`);
      // The call in flight was let finish and its outcome recorded before the store was closed.
      const leads = readLeads(store.LEADS_DATABASE_FILE!);
      expect(leads).toHaveLength(1);
      expect(leads[0]).toMatchObject({ state: "delivered", attempts: 1, email: "ada@example.com" });
      expect(fake.requests[0]?.headers["idempotency-key"]).toBe(leads[0]?.id);
    });
  }
});

describe("npm start warns, one line each, about what it accepts but ops cannot have meant (issue 24)", () => {
  let run: NpmRun | undefined;
  afterEach(() => {
    if (run && run.process.exitCode === null) {
      killTree(run.pid);
    }
    run = undefined;
  });

  const warningsOf = (lines: string[]) => lines.filter((line) => line.startsWith("npm start: warning: "));
  // Nothing listens there: the server starts all the same and reports it.
  const SHARED_STORE = "postgres://site@127.0.0.1:1/site";

  // Each warning's wording and condition: test/lib/env-warnings.test.ts.
  it("SITE_URL on localhost, MOCKS=true, no DATABASE_URL and no controller: one line each, and the server serves", async () => {
    const port = await freePort();
    run = npmStart({
      PORT: String(port),
      SITE_URL: "http://localhost:3000",
      MOCKS: "true",
      PRIVACY_CONTROLLER_NAME: undefined,
      PRIVACY_CONTROLLER_ADDRESS: undefined,
      PRIVACY_CONTACT_EMAIL: undefined,
    });
    await waitForStatus(run, `http://127.0.0.1:${port}/healthz`);
    expect(warningsOf(run.ownLines())).toEqual([
      "npm start: warning: SITE_URL is http://localhost:3000, an address of this machine: the canonical URL, Open Graph, robots.txt and sitemap.xml send visitors and search engines there. Set the public origin, for example SITE_URL=https://www.example.com.",
      expect.stringMatching(
        /^npm start: warning: DATABASE_URL is unset: every lead is kept only in .*leads\.sqlite on this machine's disk/,
      ),
      expect.stringMatching(
        /^npm start: warning: PRIVACY_CONTROLLER_NAME, PRIVACY_CONTROLLER_ADDRESS and PRIVACY_CONTACT_EMAIL are unset: \/privacy tells visitors/,
      ),
      "npm start: warning: MOCKS is set but npm start ignores it: the mocks exist only under npm run dev, and contact requests go where the startup line says. Unset MOCKS.",
    ]);
    // Ignored indeed: requests go where they would without MOCKS (no Supabase: the inbox file).
    expect(run.output()).toContain('"contactSink":"inbox"');
  });

  it("a public SITE_URL, a shared lead store, the controller named and no MOCKS: no warning at all", async () => {
    const port = await freePort();
    run = npmStart({
      PORT: String(port),
      SITE_URL: "https://www.example.com",
      MOCKS: undefined,
      DATABASE_URL: SHARED_STORE,
    });
    await waitForStatus(run, `http://127.0.0.1:${port}/healthz`);
    expect(run.output()).toContain('"event":"startup"');
    expect(run.output()).not.toContain("warning");
  });
});

describe("npm start refuses to start, in words naming the cause", () => {
  const refusal = async (run: NpmRun) => {
    const { code } = await run.exited;
    expect(code, run.output()).not.toBe(0);
    return run.ownLines();
  };

  it("without a build: one line naming the missing file", async () => {
    const lines = await refusal(
      npmStart({ REMIX_BUILD_DIR: tmp("no-build-"), PORT: String(await freePort()) }),
    );
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^npm start: no production build \(.*index\.js is missing\): run `npm run build` first\.$/,
    );
  });

  // A server build deployed without (part of) its browser build: the page would be served with
  // script tags answering 404 or another build's chunks, and never hydrate.
  it("a build whose browser files are missing: one line naming the first of them, listens nowhere", async () => {
    const copy = join(root, ".builds", `missing-assets-${process.pid}-${Date.now()}`);
    try {
      cpSync(serverBuildDir, copy, {
        recursive: true,
        filter: (from) => !from.startsWith(join(serverBuildDir, "assets")),
      });
      const assets = join(copy, "assets");
      cpSync(browserBuildDir, assets, {
        recursive: true,
        filter: (from) => !/\/routes\/_index-\w+\.js$/.test(from),
      });
      const serverFile = join(copy, "index.js");
      const server = readFileSync(serverFile, "utf8");
      expect(server).toMatch(/assetsBuildDirectory = "[^"]+"/);
      writeFileSync(
        serverFile,
        server.replace(/assetsBuildDirectory = "[^"]+"/, `assetsBuildDirectory = ${JSON.stringify(assets)}`),
      );

      const port = await freePort();
      // The configuration's warnings come first; the refusal is the one line that is not one.
      const lines = (await refusal(npmStart({ REMIX_BUILD_DIR: copy, PORT: String(port) }))).filter(
        (line) => !line.startsWith("npm start: warning:"),
      );
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(
        /^npm start: \S+ lacks the browser files its pages load \(\.builds\/missing-assets-[\w-]+\/assets\/routes\/_index-\w+\.js missing\): run `npm run build` again\.$/,
      );
      expect(await isListening(port)).toBe(false);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });

  // Each variable's sentence: test/lib/env.test.ts; each store path's: test/server/data-files.test.ts.
  // The checks between variables run once each value is good: two runs.
  it.each([
    [
      "every bad value at once",
      {
        PORT: "abc",
        HOST: "not a host",
        TRUST_PROXY: "abc",
        RATE_LIMIT_WINDOW_SECONDS: "1.5",
        DATABASE_URL: "mysql://db/leads",
      },
      ["DATABASE_URL", "HOST", "PORT", "RATE_LIMIT_WINDOW_SECONDS", "TRUST_PROXY"],
    ],
    [
      "every bad pair at once",
      {
        SUPABASE_ANON_KEY: "anon-key-without-a-url",
        RATE_LIMIT_PER_CLIENT: "10",
        RATE_LIMIT_GLOBAL_PER_MINUTE: "10",
      },
      ["RATE_LIMIT_GLOBAL_PER_MINUTE", "SUPABASE_URL"],
    ],
  ])(
    "%s: exit 1, one sentence each naming the variable, listens nowhere, never a secret",
    async (_, env, names) => {
      const run = npmStart(env);
      expect((await run.exited).code, run.output()).toBe(1);
      const lines = run.ownLines();
      expect(lines[0]).toBe("Invalid server configuration:");
      expect(
        lines
          .slice(1)
          .map((line) => /^ {2}- (\S+) /.exec(line)?.[1])
          .sort(),
      ).toEqual(names);
      expect(run.output()).not.toContain("anon-key-without-a-url");
      expect(await isListening(3000)).toBe(false);
    },
  );

  it("LEADS_DATABASE_FILE=/proc/nope/leads.sqlite: names the variable and the directory (no endless mkdir)", async () => {
    const lines = await refusal(
      npmStart({ PORT: String(await freePort()), LEADS_DATABASE_FILE: "/proc/nope/leads.sqlite" }),
    );
    expect(lines.join("\n")).toContain(
      "LEADS_DATABASE_FILE: cannot create the directory /proc/nope of /proc/nope/leads.sqlite",
    );
  });
});

describe("npm start on a data folder of the release before the lead store, and other stores", () => {
  let run: NpmRun | undefined;
  afterEach(async () => {
    if (run && run.process.exitCode === null) {
      process.kill(run.pid, "SIGTERM");
      await run.exited;
    }
    run = undefined;
  });

  const startupLine = (output: string) =>
    JSON.parse(output.split("\n").find((line) => line.includes('"event":"startup"')) ?? "null") as Record<
      string,
      unknown
    > | null;

  it("a data folder still holding a file of the release before the lead store: exit 1, one line naming the file and the release that imports it; without it, it starts (decision 050)", async () => {
    const dir = tmp("start-previous-");
    const store = leadStoreEnv(dir);
    const inbox = join(dir, "contact-requests.jsonl");
    writeFileSync(inbox, `${JSON.stringify({ name: "Old Inbox", email: "old@example.com" })}\n`);
    const port = await freePort();
    run = npmStart({ PORT: String(port), ...store });
    expect((await run.exited).code, run.output()).toBe(1);
    expect(run.ownLines()).toEqual([
      `npm start: ${dir} holds contact-requests.jsonl: leads of the release before the lead store, which this release neither imports nor erases. Start the release of commit ${IMPORTING_RELEASE} on this folder, run \`npm run leads -- import\` there once (it moves the leads into the store and renames each file <file>.imported-<time>), then delete the renamed files and start this release again.`,
    ]);
    expect(await isListening(port)).toBe(false);
    expect(existsSync(inbox)).toBe(true);
    expect(existsSync(store.LEADS_DATABASE_FILE!)).toBe(false);

    rmSync(inbox);
    run = npmStart({ PORT: String(port), ...store });
    await waitForStatus(run, `http://127.0.0.1:${port}/healthz`);
    expect(startupLine(run.output())).toMatchObject({
      event: "startup",
      leadStore: { engine: "sqlite", location: store.LEADS_DATABASE_FILE, state: "ready" },
    });
  });

  it("DATABASE_URL set: LEADS_DATABASE_FILE is not checked; an unreachable database does not stop the page", async () => {
    const port = await freePort();
    const closed = await freePort();
    run = npmStart({
      PORT: String(port),
      LEADS_DATABASE_FILE: "/proc/nope/leads.sqlite",
      DATABASE_URL: `postgres://site:start-secret-password@127.0.0.1:${closed}/leads`,
    });
    await waitForStatus(run, `http://127.0.0.1:${port}/healthz`);
    const health = (await (await fetch(`http://127.0.0.1:${port}/healthz`)).json()) as Record<
      string,
      unknown
    >;
    expect(health).toMatchObject({ status: "ok", leadStore: { engine: "postgres", state: "unavailable" } });
    expect(startupLine(run.output())).toMatchObject({
      leadStore: { engine: "postgres", state: "unavailable" },
      rateLimit: { shared: true },
    });
    expect(run.output()).not.toContain("start-secret-password");
  });
});
