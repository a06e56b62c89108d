// Plain JavaScript so that the benchmark (bench/lib/servers.mjs) can import it too; the types are
// in server-process.d.mts. The server runs scripts/start.mjs as `npm start` does, without npm.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

import { freePort } from "../../scripts/ports.mjs";

export { freePort };

export const root = fileURLToPath(new URL("../..", import.meta.url));
const startScript = `${root}scripts/start.mjs`;

/**
 * An `undefined` value in `env` removes a variable. The bench starts an earlier release's `script`
 * in its own checkout, on its own Node (`command`).
 */
export async function startServer({
  buildDir,
  env = {},
  readyPath = "/",
  readyStatus,
  logLimit = Infinity,
  command = process.execPath,
  script = startScript,
}) {
  if (!existsSync(`${buildDir}/index.js`)) {
    throw new Error(`No production build in ${buildDir}: run \`npm run build\` first.`);
  }
  const port = await freePort();
  const childEnv = {
    ...process.env,
    NODE_ENV: "production",
    ...env,
    REMIX_BUILD_DIR: buildDir,
    PORT: String(port),
    HOST: "127.0.0.1",
  };
  for (const key of Object.keys(childEnv)) if (childEnv[key] === undefined) delete childEnv[key];

  const child = spawn(command, [script], {
    cwd: root,
    env: childEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  // The server logs every request; a load test sends thousands, so it may keep only the tail.
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
      if (readyStatus === undefined || res.status === readyStatus) break;
      throw new Error(`not ready: ${res.status}`);
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
