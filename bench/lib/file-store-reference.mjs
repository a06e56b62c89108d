// The reference of the `store` section: the last release before the lead store (decision 032),
// which kept leads in JSONL files (inbox, undelivered), served as its own `npm start` serves it.
// It lives in a git worktree of that commit under .builds/ (git-ignored), with its own
// node_modules and build; everything is made once and reused while the commit stays the same.
import { execFileSync, spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";

import { freePort, root } from "./servers.mjs";

/** The last release with file-based lead storage (JSONL inbox and undelivered files). */
export const FILE_STORE_COMMIT = "b806f33";

const base = `${root}.builds/file-store-reference`;
export const referenceSrc = `${base}/src`;
// That commit's scripts/build.mjs writes to `${root}${REMIX_BUILD_DIR}`: the folder must be given
// relative to its checkout (its start.mjs resolves it against the checkout, relative or not).
const REFERENCE_BUILD_DIR = ".builds/bench-ref";

/** The environment of a child in the reference checkout: ours without npm's `npm_*` variables. */
function cleanEnv(extra = {}) {
  const env = { ...process.env };
  for (const key of Object.keys(env)) if (key.startsWith("npm_")) delete env[key];
  Object.assign(env, extra);
  for (const key of Object.keys(env)) if (env[key] === undefined) delete env[key];
  return env;
}

function git(args, cwd = root) {
  return execFileSync("git", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();
}

/** Runs `command` to its end; rejects with the tail of its output. */
function run(command, args, { cwd, env }) {
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

/** The commit the worktree has checked out, or null when `referenceSrc` is not a worktree of its own. */
function worktreeHead() {
  if (!existsSync(`${referenceSrc}/.git`)) return null;
  try {
    if (git(["rev-parse", "--show-toplevel"], referenceSrc) !== referenceSrc.replace(/\/+$/, "")) return null;
    return git(["rev-parse", "HEAD"], referenceSrc);
  } catch {
    return null;
  }
}

/**
 * Makes sure the reference is checked out, installed and built; cached by commit (a stamp file
 * `ready-<commit>.json` written last), so that only the first run pays for it.
 * @returns {Promise<{ commit: string, src: string, buildDir: string, setupMs: number, cached: boolean, steps: Record<string, number>, preparedAt: string }>}
 */
export async function prepareFileStoreReference(log) {
  const commit = git(["rev-parse", "--verify", `${FILE_STORE_COMMIT}^{commit}`]);
  const buildDir = `${referenceSrc}/${REFERENCE_BUILD_DIR}`;
  const stampFile = `${base}/ready-${commit}.json`;
  const built = () =>
    existsSync(`${referenceSrc}/node_modules/.package-lock.json`) &&
    existsSync(`${buildDir}/index.js`) &&
    existsSync(`${buildDir}/server/production.mjs`);

  if (existsSync(stampFile) && worktreeHead() === commit && built()) {
    const stamp = JSON.parse(readFileSync(stampFile, "utf8"));
    log(
      `  file store reference: ${commit.slice(0, 7)} cached in .builds/file-store-reference ` +
        `(one-time set-up took ${(stamp.setupMs / 1000).toFixed(0)} s on ${stamp.preparedAt})`,
    );
    return { ...stamp, src: referenceSrc, buildDir, cached: true };
  }

  const started = Date.now();
  const steps = {};
  const step = async (name, what, work) => {
    const at = Date.now();
    log(`  file store reference: ${what} ...`);
    await work();
    steps[name] = Date.now() - at;
    log(`  file store reference: ${what} done in ${(steps[name] / 1000).toFixed(0)} s`);
  };
  log(
    `  file store reference: one-time set-up of ${commit.slice(0, 7)} (the last release before the lead store) ` +
      `in .builds/file-store-reference/src: git worktree, npm ci, build; reused by later runs`,
  );
  for (const name of existsSync(base) ? readdirSync(base) : []) {
    if (/^ready-[0-9a-f]+\.json$/.test(name)) rmSync(`${base}/${name}`);
  }

  const head = worktreeHead();
  if (head === null) {
    if (existsSync(referenceSrc)) {
      // Not a usable worktree (an interrupted set-up): start again from nothing.
      rmSync(referenceSrc, { recursive: true, force: true });
    }
    git(["worktree", "prune"]);
    await step(
      "worktree",
      `git worktree add --detach ${referenceSrc.slice(root.length)} ${commit.slice(0, 7)}`,
      () =>
        run("git", ["-C", root, "worktree", "add", "--detach", referenceSrc, commit], {
          cwd: root,
          env: cleanEnv(),
        }),
    );
  } else if (head !== commit) {
    await step("worktree", `git checkout --detach ${commit.slice(0, 7)} (was ${head.slice(0, 7)})`, () =>
      run("git", ["checkout", "--detach", "--force", commit], { cwd: referenceSrc, env: cleanEnv() }),
    );
  }
  // Its own .npmrc has ignore-scripts=true: nothing of that release needs an install script.
  await step("install", "npm ci --no-audit --no-fund --prefer-offline", () =>
    run("npm", ["ci", "--no-audit", "--no-fund", "--prefer-offline"], { cwd: referenceSrc, env: cleanEnv() }),
  );
  await step("build", `node scripts/build.mjs (REMIX_BUILD_DIR=${REFERENCE_BUILD_DIR})`, () =>
    run(process.execPath, ["scripts/build.mjs"], {
      cwd: referenceSrc,
      env: cleanEnv({ REMIX_BUILD_DIR: REFERENCE_BUILD_DIR }),
    }),
  );
  if (!built()) throw new Error(`The file store reference build is incomplete in ${buildDir}.`);

  const setupMs = Date.now() - started;
  const stamp = { commit, setupMs, steps, preparedAt: new Date().toISOString(), node: process.version };
  writeFileSync(stampFile, `${JSON.stringify(stamp, null, 2)}\n`);
  log(
    `  file store reference: one-time set-up done in ${(setupMs / 1000).toFixed(0)} s (cached for the next runs)`,
  );
  return { ...stamp, src: referenceSrc, buildDir, cached: false };
}

/**
 * Starts the reference as its own `npm start` would (`node scripts/start.mjs` in its checkout) on
 * a free port of 127.0.0.1 with `env`, and waits until /healthz answers 200.
 */
export async function startFileStoreReference(reference, env) {
  const port = await freePort();
  const child = spawn(process.execPath, [`${reference.src}/scripts/start.mjs`], {
    cwd: reference.src,
    env: cleanEnv({
      ...env,
      NODE_ENV: "production",
      REMIX_BUILD_DIR: REFERENCE_BUILD_DIR,
      PORT: String(port),
      HOST: "127.0.0.1",
    }),
    stdio: ["ignore", "pipe", "pipe"],
  });
  // It logs every request: keep the tail only.
  let output = "";
  const append = (chunk) => (output = (output + chunk).slice(-20_000));
  child.stdout.on("data", append);
  child.stderr.on("data", append);
  const url = `http://127.0.0.1:${port}`;
  const stop = () =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve(child.exitCode);
      const killer = setTimeout(() => child.kill("SIGKILL"), 15_000);
      child.once("exit", (code) => {
        clearTimeout(killer);
        resolve(code);
      });
      child.kill("SIGTERM");
    });

  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`The file store reference exited with ${child.exitCode}:\n${output}`);
    try {
      const res = await fetch(`${url}/healthz`);
      await res.arrayBuffer();
      if (res.status === 200) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`The file store reference did not answer /healthz 200 within 60 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { url, port, pid: child.pid, output: () => output, stop };
}
