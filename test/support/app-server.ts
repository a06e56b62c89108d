import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

import { freePort } from "./ports";

const root = fileURLToPath(new URL("../..", import.meta.url));
const serveCli = `${root}node_modules/@remix-run/serve/dist/cli.js`;
const buildDir = process.env.REMIX_BUILD_DIR?.replace(/\/+$/, "") ?? "build";
const serverBuild = `${root}${buildDir}/index.js`;

export interface AppServer {
  url: string;
  port: number;
  process: ChildProcess;
  /** Everything the server printed so far (stdout and stderr). */
  output(): string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Starts the production build (`npm run build` output) with remix-serve on a
 * free port of 127.0.0.1, exactly as `npm start` serves it.
 */
export async function startAppServer(env: Record<string, string | undefined> = {}): Promise<AppServer> {
  if (!existsSync(serverBuild)) {
    throw new Error("No production build: run `npm run build` first (npm test does it for you).");
  }
  const port = await freePort();
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    ...env,
    PORT: String(port),
    HOST: "127.0.0.1",
    NODE_ENV: (env.NODE_ENV ?? "production") as NodeJS.ProcessEnv["NODE_ENV"],
  };
  // Never inherit a real backend from the developer's shell: a test names its own.
  if (!("SUPABASE_URL" in env)) delete childEnv.SUPABASE_URL;
  if (!("SUPABASE_ANON_KEY" in env)) delete childEnv.SUPABASE_ANON_KEY;

  const child = spawn(process.execPath, [serveCli, serverBuild], {
    cwd: root,
    env: childEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  child.stdout?.on("data", (chunk: Buffer) => (log += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (log += chunk.toString()));

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`Server exited with ${child.exitCode}:\n${log}`);
    try {
      const res = await fetch(`${url}/healthz`);
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
