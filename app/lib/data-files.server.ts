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

/**
 * The files this configuration writes: the undelivered file always (a failed send, or a failed
 * inbox write, is kept there), the inbox only when it is where requests go (no Supabase).
 */
export function dataFileProblems(env: Env): string[] {
  const files: [string, string][] = [["CONTACT_UNDELIVERED_FILE", env.CONTACT_UNDELIVERED_FILE]];
  if (!(env.SUPABASE_URL && env.SUPABASE_ANON_KEY))
    files.unshift(["CONTACT_INBOX_FILE", env.CONTACT_INBOX_FILE]);
  return files.flatMap(([variable, file]) => dataFileProblem(variable, file) ?? []);
}
