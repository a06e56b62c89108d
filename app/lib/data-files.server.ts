import { accessSync, constants, statSync } from "node:fs";
import { dirname, resolve } from "node:path";

import type { Env } from "~/lib/env.server";
import { ensureDirectorySync, errorCode } from "~/lib/files.server";

/**
 * Checked when the server starts, so that an unusable path stops it with the variable and the
 * path named, instead of failing (or hanging) on the first visitor's submission.
 */
export function dataFileProblem(variable: string, file: string): string | null {
  const path = resolve(file);
  const dir = dirname(path);
  try {
    ensureDirectorySync(dir);
  } catch (error) {
    return `${variable}: cannot create the directory ${dir} of ${file} (${errorCode(error)})`;
  }
  try {
    accessSync(dir, constants.W_OK);
  } catch (error) {
    return `${variable}: the directory ${dir} of ${file} is not writable (${errorCode(error)})`;
  }
  try {
    if (!statSync(path).isFile()) return `${variable}: ${file} is not a regular file`;
    accessSync(path, constants.W_OK);
  } catch (error) {
    const code = errorCode(error);
    if (code !== "ENOENT") return `${variable}: ${file} is not writable (${code})`;
  }
  return null;
}

/** The file this configuration writes: the embedded lead store, unless PostgreSQL keeps the leads. */
export function dataFileProblems(env: Env): string[] {
  if (env.DATABASE_URL) return [];
  const problem = dataFileProblem("LEADS_DATABASE_FILE", env.LEADS_DATABASE_FILE);
  // One sentence, as every configuration error: the variable, the problem, a value that works.
  return problem
    ? [
        `${problem}: use a path the server's user can write, for example LEADS_DATABASE_FILE=/var/lib/agency-site/leads.sqlite.`,
      ]
    : [];
}
