import { mkdirSync, statSync } from "node:fs";
import { stat } from "node:fs/promises";
import { dirname, resolve } from "node:path";

/**
 * Filesystem helpers for the files the server writes (the inbox, the undelivered file). Two
 * things a visitor's request must never do: wait on Node's `mkdir({ recursive: true })`, which
 * for some paths never returns (under /proc it retries forever at full CPU), and wait on a disk
 * that does not answer.
 */

/** How long a request waits for one inbox line to be written before the lead is kept elsewhere. */
export const INBOX_WRITE_DEADLINE_MS = 5_000;
/**
 * How long a request waits for the undelivered file before the lead goes to the log instead
 * (decision 024: up to ~8 s of that may be waiting for a dead holder's stale lock).
 */
export const UNDELIVERED_WRITE_DEADLINE_MS = 10_000;

export const errorCode = (error: unknown): string =>
  error && typeof error === "object" && "code" in error ? String(error.code) : String(error);

const notADirectory = (path: string) =>
  Object.assign(new Error(`${path} is not a directory`), { code: "ENOTDIR" });

/** The directories from `dir` up to its first existing ancestor, outermost first. */
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

/** The same, without blocking the event loop (the directory normally exists: one stat). */
export async function ensureDirectory(dir: string): Promise<void> {
  const path = resolve(dir);
  try {
    if ((await stat(path)).isDirectory()) return;
    throw notADirectory(path);
  } catch (error) {
    if (errorCode(error) !== "ENOENT") throw error;
  }
  // Rare (the directory was removed after start): the synchronous walk is a few system calls.
  ensureDirectorySync(path);
}

/**
 * `work`, or an ETIMEDOUT error once `ms` have passed. The work itself cannot be cancelled (a
 * hung write stays hung); only the caller stops waiting for it.
 */
export function withDeadline<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(Object.assign(new Error(`${what} did not finish within ${ms} ms`), { code: "ETIMEDOUT" })),
      ms,
    );
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}
