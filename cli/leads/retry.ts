import { mkdir } from "node:fs/promises";
import { dirname } from "node:path";

import lockfile from "proper-lockfile";

import type { ContactSink, SendFailure } from "~/lib/contact/sink.server";
import {
  appendQueueLines,
  compactQueue,
  deliveredMarker,
  type ParsedQueue,
  pendingEntries,
  readQueue,
  rewriteQueue,
  serializeLine,
  type UndeliveredEntry,
  unreadableLines,
  withQueueLock,
} from "~/lib/contact/undelivered-store.server";

import { CliError } from "./errors";

export type RetryOutcome =
  | { kind: "delivered" }
  | { kind: "skipped"; why: string }
  | { kind: "failed"; reason: SendFailure; status?: number };

export interface RetryReport {
  attempted: number;
  delivered: number;
  skipped: number;
  failed: number;
  /** Pending entries left in the file after the rewrite (failed again, or added by the server meanwhile). */
  remaining: number;
  /** Of those, how many the server added while the retry ran. */
  addedMeanwhile: number;
  unreadable: { line: number; problem: string }[];
  /** The marker of a delivered request could not be written (it was still removed by the rewrite). */
  markerErrors: number;
}

export interface RetryOptions {
  file: string;
  /** The same sink the server uses (createSupabaseSink with the server's timeout). */
  sink: ContactSink;
  now?: () => Date;
  onStart?: (total: number) => void;
  onProgress?: (done: number, total: number, outcome: RetryOutcome, entry: UndeliveredEntry) => void;
}

const runLockOf = (file: string) => `${file}.retry`;

/** Only one retry at a time: two would send the same requests twice. */
async function takeRunLock(file: string): Promise<() => Promise<void>> {
  await mkdir(dirname(file), { recursive: true });
  try {
    return await lockfile.lock(runLockOf(file), {
      lockfilePath: `${runLockOf(file)}.lock`,
      realpath: false,
      stale: 10_000,
      retries: 0,
      onCompromised: () => undefined,
    });
  } catch (error) {
    if ((error as { code?: string }).code === "ELOCKED") {
      throw new CliError(
        `Another \`npm run leads -- retry\` is running on ${file}; try again when it has finished.`,
        2,
      );
    }
    throw error;
  }
}

const stillPending = (queue: ParsedQueue | undefined, entry: UndeliveredEntry) =>
  Boolean(queue && pendingEntries(queue).some((candidate) => candidate.id === entry.id));

/**
 * Sends every pending request again, one at a time, then rewrites the file so that only what is
 * still pending stays. Each delivery is recorded at once with a "delivered" marker, so a retry
 * that dies halfway never sends the same request twice. Returns undefined when there is no file.
 */
export async function retryPending({
  file,
  sink,
  now = () => new Date(),
  onStart,
  onProgress,
}: RetryOptions): Promise<RetryReport | undefined> {
  if (!(await readQueue(file))) return undefined;
  const releaseRun = await takeRunLock(file);
  try {
    // Under the lock, so that a line being appended is read whole or not at all.
    const snapshot = await withQueueLock(file, () => readQueue(file));
    if (!snapshot) return undefined;
    const pending = pendingEntries(snapshot);
    const snapshotIds = new Set(pending.map((entry) => entry.id));
    const deliveredIds = new Set<string>();
    const deliveredFingerprints = new Set<string>();
    const failures = new Map<string, { reason: SendFailure; at: Date }>();
    let skipped = 0;
    let markerErrors = 0;
    onStart?.(pending.length);

    for (const [index, entry] of pending.entries()) {
      let outcome: RetryOutcome;
      if (deliveredFingerprints.has(entry.fingerprint)) {
        outcome = { kind: "skipped", why: "the same request was just delivered" };
      } else if (!stillPending(await readQueue(file), entry)) {
        outcome = { kind: "skipped", why: "delivered meanwhile (the visitor sent it again)" };
      } else {
        const result = await sink.send(entry.request);
        if (result.ok) {
          outcome = { kind: "delivered" };
          deliveredIds.add(entry.id);
          deliveredFingerprints.add(entry.fingerprint);
          try {
            await appendQueueLines(file, serializeLine(deliveredMarker(entry.request, "leads-cli", now())));
          } catch {
            markerErrors++;
          }
        } else {
          outcome = {
            kind: "failed",
            reason: result.reason,
            ...(result.status ? { status: result.status } : {}),
          };
          failures.set(entry.id, { reason: result.reason, at: now() });
        }
      }
      if (outcome.kind === "skipped") skipped++;
      onProgress?.(index + 1, pending.length, outcome, entry);
    }

    const rewritten = await rewriteQueue(file, (current) => {
      const text = compactQueue(current, {
        drop: (entry) => deliveredIds.has(entry.id),
        update: (entry) => {
          const failure = failures.get(entry.id);
          if (!failure) return entry;
          return {
            ...entry,
            attempts: (entry.attempts ?? 0) + 1,
            lastAttemptAt: failure.at.toISOString(),
            lastReason: failure.reason,
          };
        },
      });
      const after = pendingEntries(current).filter((entry) => !deliveredIds.has(entry.id));
      return {
        text,
        result: {
          remaining: after.length,
          addedMeanwhile: after.filter((entry) => !snapshotIds.has(entry.id)).length,
          unreadable: unreadableLines(current).map(({ line, problem }) => ({ line, problem })),
        },
      };
    });

    return {
      attempted: pending.length,
      delivered: deliveredIds.size,
      skipped,
      failed: failures.size,
      remaining: rewritten?.remaining ?? 0,
      addedMeanwhile: rewritten?.addedMeanwhile ?? 0,
      unreadable: rewritten?.unreadable ?? [],
      markerErrors,
    };
  } finally {
    await releaseRun().catch(() => undefined);
  }
}
