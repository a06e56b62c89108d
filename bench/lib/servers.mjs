// The processes the benchmark measures: a production build served by remix-serve
// (exactly as `npm start` does) and a stand-in for the `send-contact-email`
// function. Both listen on 127.0.0.1 only.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer } from "node:http";
import { createServer as createNetServer } from "node:net";
import { fileURLToPath } from "node:url";

export const root = fileURLToPath(new URL("../..", import.meta.url));

/** A TCP port on 127.0.0.1 that was free a moment ago. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createNetServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      if (address === null || typeof address === "string") return reject(new Error("no port"));
      server.close(() => resolve(address.port));
    });
  });
}

/** Builds the app into `buildDir` (never into the shared `build/`). */
export function buildApp(buildDir) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [`${root}scripts/build.mjs`], {
      cwd: root,
      env: { ...process.env, REMIX_BUILD_DIR: buildDir },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let log = "";
    child.stdout.on("data", (chunk) => (log += chunk));
    child.stderr.on("data", (chunk) => (log += chunk));
    child.on("error", reject);
    child.on("exit", (code) =>
      code === 0 ? resolve(log) : reject(new Error(`remix build failed (${code}):\n${log}`)),
    );
  });
}

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

/** Starts `remix-serve <buildDir>/index.js` on a free loopback port and waits until it answers. */
export async function startAppServer(buildDir, env = {}) {
  const serverBuild = `${root}${buildDir}/index.js`;
  if (!existsSync(serverBuild)) throw new Error(`No server build at ${serverBuild}`);
  const port = await freePort();
  const childEnv = { ...process.env, ...env, PORT: String(port), HOST: "127.0.0.1", NODE_ENV: "production" };
  for (const key of Object.keys(childEnv)) if (childEnv[key] === undefined) delete childEnv[key];

  const child = spawn(process.execPath, [`${root}node_modules/@remix-run/serve/dist/cli.js`, serverBuild], {
    cwd: root,
    env: childEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  // remix-serve logs every request: keep only the tail, a load test sends thousands.
  let log = "";
  const append = (chunk) => {
    log = (log + chunk).slice(-20_000);
  };
  child.stdout.on("data", append);
  child.stderr.on("data", append);

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`Server exited with ${child.exitCode}:\n${log}`);
    try {
      const res = await fetch(`${url}/`);
      await res.arrayBuffer();
      break;
    } catch {
      if (Date.now() > deadline) {
        child.kill("SIGKILL");
        throw new Error(`Server did not start within 30 s:\n${log}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return {
    url,
    port,
    pid: child.pid,
    output: () => log,
    stop() {
      return new Promise((resolve) => {
        if (child.exitCode !== null) return resolve(child.exitCode);
        const killer = setTimeout(() => child.kill("SIGKILL"), 10_000);
        child.once("exit", (code) => {
          clearTimeout(killer);
          resolve(code);
        });
        child.kill("SIGTERM");
      });
    },
  };
}
