// Finding the programs the tests run but never download (Chromium, Firefox, WebKitWebDriver, Xvfb,
// PostgreSQL): the one place that decides what counts as a runnable program and how the PATH is read.
import { accessSync, constants, statSync } from "node:fs";
import { delimiter, join } from "node:path";

/** Whether `path` is a regular file this user may execute (a folder named `chromium` is not). */
export function isExecutableFile(path) {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The first of `names` on the PATH, in the PATH's order (the shell's choice), or null.
 * Empty PATH entries are skipped: the shell would read them as the current folder.
 * @param {string[]} names
 * @param {Record<string, string | undefined>} [env]
 * @returns {string | null}
 */
export function firstOnPath(names, env = process.env) {
  for (const dir of (env.PATH ?? "").split(delimiter)) {
    if (!dir) continue;
    for (const name of names) {
      const candidate = join(dir, name);
      if (isExecutableFile(candidate)) return candidate;
    }
  }
  return null;
}

/**
 * The program `variable` names when it is set (and then only that one), else the first of
 * `names` on the PATH, with a reason a person can act on either way.
 * @param {{ variable: string, names: string[], install: string }} program
 * @param {Record<string, string | undefined>} [env]
 * @returns {{ path: string | null, reason: string }}
 */
export function findProgram({ variable, names, install }, env = process.env) {
  const override = env[variable]?.trim();
  if (override) {
    return isExecutableFile(override)
      ? { path: override, reason: `${variable}=${override}` }
      : { path: null, reason: `${variable}=${override} is not an executable file` };
  }
  const found = firstOnPath(names, env);
  return found
    ? { path: found, reason: `found ${found} on the PATH` }
    : {
        path: null,
        reason: `neither ${names.join(" nor ")} is on the PATH and ${variable} is unset (${install})`,
      };
}
