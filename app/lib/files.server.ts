import { mkdirSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";

/** Never Node's `mkdir({ recursive: true })`: under /proc it retries forever at full CPU. */

export const errorCode = (error: unknown): string =>
  error && typeof error === "object" && "code" in error ? String(error.code) : String(error);

const notADirectory = (path: string) =>
  Object.assign(new Error(`${path} is not a directory`), { code: "ENOTDIR" });

function missingDirectories(dir: string, exists: (path: string) => boolean): string[] {
  const missing: string[] = [];
  let current = resolve(dir);
  while (!exists(current)) {
    missing.unshift(current);
    const parent = dirname(current);
    if (parent === current) break;
    current = parent;
  }
  return missing;
}

function existsAsDirectorySync(path: string): boolean {
  try {
    if (!statSync(path).isDirectory()) throw notADirectory(path);
    return true;
  } catch (error) {
    if (errorCode(error) === "ENOENT") return false;
    throw error;
  }
}

/** `mkdir -p`, one level at a time: every step returns, with an error when it cannot be done. */
export function ensureDirectorySync(dir: string): void {
  for (const path of missingDirectories(dir, existsAsDirectorySync)) {
    try {
      mkdirSync(path);
    } catch (error) {
      if (errorCode(error) !== "EEXIST") throw error;
    }
  }
}
