import { randomUUID } from "node:crypto";
import { open, readFile, rename, rm, stat } from "node:fs/promises";
import { dirname, join, basename } from "node:path";

import lockfile from "proper-lockfile";

import {
  type ParsedQueue,
  parseQueue,
  pendingEntries,
  unreadableLines,
} from "~/lib/contact/undelivered-format.server";
import { ensureDirectory } from "~/lib/files.server";

/**
 * The undelivered file on disk (its lines: `undelivered-format.server`). The server only appends;
 * the leads CLI appends markers and rewrites the file. Both take the same lock (a `<file>.lock`
 * directory, proper-lockfile) for every append and for the rewrite, and nobody holds it across a
 * network call, so a server append waits at most for one short rewrite and no line can fall
 * between a read and a rename (decision 024).
 */

export interface LockTiming {
  /** After this long without an update, a lock is a dead holder's and may be taken over. */
  staleMs: number;
  /** How long to keep trying to take a held lock. */
  retries: { retries: number; factor: number; minTimeout: number; maxTimeout: number };
}

/**
 * Holders keep the lock for milliseconds; waiting up to ~8 s outlasts a dead holder's stale
 * lock (5 s) without making a visitor wait on a live one.
 */
export const DEFAULT_LOCK_TIMING: LockTiming = {
  staleMs: 5_000,
  retries: { retries: 25, factor: 1.3, minTimeout: 20, maxTimeout: 500 },
};

export const lockPathOf = (file: string) => `${file}.lock`;

/** Runs `task` while holding the file's lock; the lock directory sits next to the file. */
export async function withQueueLock<T>(
  file: string,
  task: () => Promise<T>,
  timing: LockTiming = DEFAULT_LOCK_TIMING,
): Promise<T> {
  await ensureDirectory(dirname(file));
  let compromised: Error | undefined;
  const release = await lockfile.lock(file, {
    lockfilePath: lockPathOf(file),
    realpath: false,
    stale: timing.staleMs,
    retries: timing.retries,
    // The default throws from a timer, which would crash the server. Holders keep the lock for
    // milliseconds, so this only happens on a stalled disk; the task is not interrupted.
    onCompromised: (error) => {
      compromised = error;
    },
  });
  try {
    return await task();
  } finally {
    if (compromised) {
      console.error(
        JSON.stringify({ event: "undelivered_lock_compromised", file, error: compromised.message }),
      );
    }
    await release().catch(() => undefined);
  }
}

const isMissing = (error: unknown) =>
  Boolean(error && typeof error === "object" && "code" in error && error.code === "ENOENT");

/** The file's text, or undefined when it does not exist yet. */
export async function readQueueText(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, "utf8");
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}

export async function readQueue(file: string): Promise<ParsedQueue | undefined> {
  const text = await readQueueText(file);
  return text === undefined ? undefined : parseQueue(text);
}

/** Whether the file ends in the middle of a line (a writer died mid-line): the next append starts a new one. */
async function endsMidLine(file: string): Promise<boolean> {
  let handle;
  try {
    handle = await open(file, "r");
  } catch (error) {
    if (isMissing(error)) return false;
    throw error;
  }
  try {
    const { size } = await handle.stat();
    if (size === 0) return false;
    const last = Buffer.alloc(1);
    await handle.read(last, 0, 1, size - 1);
    return last[0] !== 0x0a;
  } finally {
    await handle.close();
  }
}

/** Appends whole lines; the caller holds the lock. Creates the file with mode 0600. */
export async function appendWhileLocked(file: string, lines: string): Promise<void> {
  const text = (await endsMidLine(file)) ? `\n${lines}` : lines;
  const handle = await open(file, "a", 0o600);
  try {
    await handle.appendFile(text, "utf8");
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Appends whole lines under the lock; creates the directory and the file (mode 0600). */
export async function appendQueueLines(
  file: string,
  lines: string,
  timing: LockTiming = DEFAULT_LOCK_TIMING,
): Promise<void> {
  await withQueueLock(file, () => appendWhileLocked(file, lines), timing);
}

/**
 * Replaces the file's content atomically under the lock: `transform` gets what is in the file
 * now (not an earlier read), the result goes to a temporary file next to it (mode 0600, synced),
 * which is then renamed over it. A reader sees the old file or the new one, never a mix.
 */
export async function rewriteQueue<T>(
  file: string,
  transform: (queue: ParsedQueue) => { text: string; result: T },
  timing: LockTiming = DEFAULT_LOCK_TIMING,
): Promise<T | undefined> {
  return withQueueLock(
    file,
    async () => {
      const current = await readQueue(file);
      if (!current) return undefined;
      const { text, result } = transform(current);
      const temp = join(dirname(file), `.${basename(file)}.${process.pid}.${randomUUID()}.tmp`);
      try {
        const handle = await open(temp, "wx", 0o600);
        try {
          await handle.writeFile(text, "utf8");
          await handle.sync();
        } finally {
          await handle.close();
        }
        await rename(temp, file);
      } catch (error) {
        await rm(temp, { force: true });
        throw error;
      }
      return result;
    },
    timing,
  );
}

/** Pending entries plus unreadable lines (each may be a lead): what `contact_undelivered_pending` reports. */
export async function countPending(file: string): Promise<number> {
  const queue = await readQueue(file);
  if (!queue) return 0;
  return pendingEntries(queue).length + unreadableLines(queue).length;
}

export async function fileExists(file: string): Promise<boolean> {
  try {
    await stat(file);
    return true;
  } catch (error) {
    if (isMissing(error)) return false;
    throw error;
  }
}
