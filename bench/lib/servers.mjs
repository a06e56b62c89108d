// The processes the benchmark measures: a production build served exactly as `npm start`
// does (scripts/start.mjs) and a stand-in for the `send-contact-email`
// function. Both listen on 127.0.0.1 only.
import { spawn } from "node:child_process";
import { createServer } from "node:http";

import { freePort, root, startServer } from "../../test/support/server-process.mjs";

export { freePort, root };

/** Runs `command` to its end; resolves with the tail of its output, rejects with it. */
export function runToEnd(command, args, { cwd = root, env = process.env } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    const append = (chunk) => (output = (output + chunk).slice(-20_000));
    child.stdout.on("data", append);
    child.stderr.on("data", append);
    child.on("error", reject);
    child.on("exit", (code, signal) =>
      code === 0
        ? resolve(output)
        : reject(new Error(`${command} ${args.join(" ")} failed (${signal ?? code}):\n${output}`)),
    );
  });
}

/** Builds the app into `buildDir` (never into the shared `build/`). */
export const buildApp = (buildDir) =>
  runToEnd(process.execPath, [`${root}scripts/build.mjs`], {
    env: { ...process.env, REMIX_BUILD_DIR: buildDir },
  });

/**
 * A `send-contact-email` that answers 200 at once, so that a POST's latency is the
 * app server's own work plus one loopback round trip.
 */
export async function startFakeFunction() {
  const port = await freePort();
  let received = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      if (req.method === "OPTIONS") return res.writeHead(204).end();
      if (req.url !== "/functions/v1/send-contact-email") {
        return res.writeHead(404, { "content-type": "application/json" }).end('{"error":"not found"}');
      }
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

/** Starts the production server on `<buildDir>` on a free loopback port and waits until `/` answers. */
export async function startAppServer(buildDir, env = {}) {
  // The server logs every request: keep only the tail, a load test sends thousands.
  const server = await startServer({ buildDir: `${root}${buildDir}`, env, logLimit: 20_000 });
  return { ...server, pid: server.process.pid };
}

/**
 * Starts bench/lib/bare-server.mjs serving `response` ({ headers, body: Buffer }) on a free
 * loopback port: the ceiling GET / is measured against.
 */
export async function startBareServer(response, dir) {
  const { mkdtempSync, writeFileSync } = await import("node:fs");
  const file = `${mkdtempSync(`${dir}/bare-`)}/response.json`;
  writeFileSync(file, JSON.stringify({ headers: response.headers, body: response.body.toString("base64") }));
  const child = spawn(process.execPath, [`${root}bench/lib/bare-server.mjs`, file], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const port = await new Promise((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (chunk) => {
      out += chunk;
      const match = /listening (\d+)/.exec(out);
      if (match) resolve(Number(match[1]));
    });
    child.on("exit", (code) => reject(new Error(`bare server exited with ${code}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}
