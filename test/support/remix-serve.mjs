// Process helpers shared by the tests (through app-server.ts and ports.ts) and the benchmark
// (bench/lib/servers.mjs, plain Node): a free loopback port, and the production build served by
// remix-serve exactly as `npm start` serves it. Plain JavaScript so that both can import it;
// the types are in remix-serve.d.mts.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";

export const root = fileURLToPath(new URL("../..", import.meta.url));
const serveCli = `${root}node_modules/@remix-run/serve/dist/cli.js`;

/** A TCP port on 127.0.0.1 that was free a moment ago. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      if (address === null || typeof address === "string") return reject(new Error("no port"));
      server.close(() => resolve(address.port));
    });
  });
}

/**
 * Starts `remix-serve <serverBuild>` on a free port of 127.0.0.1 with `env` (an `undefined` value
 * removes a variable) and waits until `readyPath` answers.
 */
export async function startRemixServe({ serverBuild, env = {}, readyPath = "/", logLimit = Infinity }) {
  if (!existsSync(serverBuild)) {
    throw new Error(`No production build at ${serverBuild}: run \`npm run build\` first.`);
  }
  const port = await freePort();
  const childEnv = { ...process.env, NODE_ENV: "production", ...env, PORT: String(port), HOST: "127.0.0.1" };
  for (const key of Object.keys(childEnv)) if (childEnv[key] === undefined) delete childEnv[key];

  const child = spawn(process.execPath, [serveCli, serverBuild], {
    cwd: root,
    env: childEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  // remix-serve logs every request; a load test sends thousands, so it may keep only the tail.
  let log = "";
  const append = (chunk) => {
    log = (log + chunk.toString()).slice(-logLimit);
  };
  child.stdout.on("data", append);
  child.stderr.on("data", append);

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`Server exited with ${child.exitCode}:\n${log}`);
    try {
      const res = await fetch(`${url}${readyPath}`);
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
    process: child,
    output: () => log,
    stop(signal = "SIGTERM") {
      return new Promise((resolve) => {
        if (child.exitCode !== null) return resolve(child.exitCode);
        const killer = setTimeout(() => child.kill("SIGKILL"), 15_000);
        child.once("exit", (code) => {
          clearTimeout(killer);
          resolve(code);
        });
        child.kill(signal);
      });
    },
  };
}
