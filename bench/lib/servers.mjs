// The processes the bench and the soak measure, all on 127.0.0.1: a production build served exactly
// as `npm start` serves it, a stand-in for the `send-contact-email` function, and the bare server.
import { execFile, spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import { createServer } from "node:http";
import { resolve } from "node:path";
import { promisify } from "node:util";

import { freePort, root, startServer } from "../../test/support/server-process.mjs";

export { root };

/** Runs `command` to its end; rejects with its output (execFile's error names the command and its stderr). */
export const runToEnd = (command, args, { cwd = root, env = process.env } = {}) =>
  promisify(execFile)(command, args, { cwd, env, maxBuffer: 64 * 2 ** 20 });

/** Builds the app into `buildDir` (never into the shared `build/`). */
export const buildApp = (buildDir) =>
  runToEnd(process.execPath, [`${root}scripts/build.mjs`], {
    env: { ...process.env, REMIX_BUILD_DIR: buildDir },
  });

/** A `send-contact-email` that answers 200 at once: a POST's latency is then the app server's own work. */
export async function startFakeFunction() {
  const port = await freePort();
  let received = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      if (req.url !== "/functions/v1/send-contact-email") return res.writeHead(404).end();
      received += 1;
      res.writeHead(200, { "content-type": "application/json" }).end('{"success":true}');
    });
  });
  await new Promise((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    received: () => received,
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * What every measured server runs with: the fake function, and rate limits so high that a load
 * measures the server, not the limiter (the global limit must exceed the per-client one).
 */
export const benchEnv = (fake) => ({
  SUPABASE_URL: fake.url,
  SUPABASE_ANON_KEY: "bench-anon-key",
  RATE_LIMIT_PER_CLIENT: "1000000000",
  RATE_LIMIT_GLOBAL_PER_MINUTE: "1000000001",
  GA_MEASUREMENT_ID: undefined,
  MOCKS: undefined,
});

/** A lead store of its own in `dir` (SQLite unless `databaseUrl`), and no file of the checkout's to import. */
export function leadStoreEnv(dir, databaseUrl) {
  mkdirSync(dir, { recursive: true });
  return {
    LEADS_DATABASE_FILE: `${dir}/leads.sqlite`,
    DATABASE_URL: databaseUrl,
    CONTACT_INBOX_FILE: `${dir}/contact-requests.jsonl`,
    CONTACT_UNDELIVERED_FILE: `${dir}/undelivered-contact-requests.jsonl`,
  };
}

/** Starts the production server on `<buildDir>` (relative to the checkout) and waits until `/` answers. */
export async function startAppServer(buildDir, env = {}) {
  // The server logs every request: keep only the tail, a load test sends thousands.
  const server = await startServer({ buildDir: resolve(root, buildDir), env, logLimit: 20_000 });
  return { ...server, pid: server.process.pid };
}

/** Waits until the server's /healthz reports its lead store as `engine` and ready. */
export async function storeReady(server, engine) {
  for (const deadline = Date.now() + 30_000; ; await new Promise((resolve) => setTimeout(resolve, 200))) {
    const { leadStore } = await (await fetch(`${server.url}/healthz`)).json();
    if (leadStore?.engine === engine && leadStore.state === "ready") return;
    if (Date.now() > deadline)
      throw new Error(`No ready ${engine} lead store after 30 s: ${JSON.stringify(leadStore)}`);
  }
}

/**
 * Starts bench/lib/bare-server.mjs answering every request with `response` ({ headers, body:
 * Buffer }): the ceiling a page is measured against. Its own process, as the app server is.
 */
export async function startBareServer({ headers, body }) {
  const response = JSON.stringify({ headers, body: body.toString("base64") });
  const child = spawn(process.execPath, [`${root}bench/lib/bare-server.mjs`, response], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const port = await new Promise((resolve, reject) => {
    child.stdout.once("data", (chunk) => resolve(Number(/listening (\d+)/.exec(String(chunk))?.[1])));
    child.once("exit", (code) => reject(new Error(`bare server exited with ${code}`)));
  });
  const stop = () =>
    new Promise((resolve) => (child.exitCode !== null ? resolve() : child.once("exit", resolve).kill()));
  return { url: `http://127.0.0.1:${port}`, stop };
}
