import { mkdir } from "node:fs/promises";
import { dirname } from "node:path";

import lockfile from "proper-lockfile";

import type { ContactSink, SendFailure } from "~/lib/contact/sink.server";
import {
  appendQueueLines,
  readQueue,
  rewriteQueue,
  withQueueLock,
} from "~/lib/contact/undelivered-file.server";
import {
  compactQueue,
  deliveredMarker,
  type ParsedQueue,
  pendingEntries,
  serializeLine,
  unreadableLines,
} from "~/lib/contact/undelivered-format.server";

import { CliError } from "./errors";
import { type PendingRequest, pendingRequests, retryPlan } from "./plan";

export type RetryOutcome =
  | { kind: "delivered" }
  | { kind: "skipped"; why: string }
  | { kind: "failed"; reason: SendFailure; status?: number; possiblyDelivered: boolean };

export interface RetryReport {
  /** Distinct pending requests (fingerprints) when the retry started, and their copies in the file. */
  requests: number;
  copies: number;
  /** Requests the run meant to send (those held back not included). */
  attempted: number;
  /** Of those, how many were marked possibly delivered (sent because `includePossiblyDelivered`). */
  possiblyDeliveredSent: number;
  delivered: number;
  skipped: number;
  failed: number;
  /** Requests not sent because they may have been delivered already. */
  heldBack: number;
  /** Pending entries left in the file after the rewrite (failed again, held back, or added by the server meanwhile). */
  remaining: number;
  /** Of those, how many the server added while the retry ran. */
  addedMeanwhile: number;
  unreadable: { line: number; problem: string }[];
  /** The marker of a delivered request could not be written (it was still removed by the rewrite). */
  markerErrors: number;
}

export interface RetryOptions {
  file: string;
  /** The sink the server is configured with (the Supabase function with its timeout, or the inbox file). */
  sink: ContactSink;
  /** Send the requests marked possiblyDelivered too (by default they stay pending, untouched). */
  includePossiblyDelivered?: boolean;
  /** Sees the requests about to be sent before any is; throws to refuse the run. */
  check?: (send: readonly PendingRequest[]) => void;
  now?: () => Date;
  onStart?: (total: number) => void;
  onProgress?: (done: number, total: number, outcome: RetryOutcome, request: PendingRequest) => void;
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

/** Whether a copy of the request is still pending (the visitor may have sent it again meanwhile). */
function stillPending(queue: ParsedQueue | undefined, request: PendingRequest): boolean {
  if (!queue) return false;
  const ids = new Set(request.copies.map((copy) => copy.id));
  return pendingEntries(queue).some((entry) => ids.has(entry.id));
}

interface Failure {
  reason: SendFailure;
  at: Date;
  possiblyDelivered: boolean;
}

/**
 * Sends every pending request again, one at a time and each fingerprint once (its latest copy),
 * then rewrites the file so that only what is still pending stays. Each delivery is recorded at
 * once with a "delivered" marker, which supersedes every copy, so a retry that dies halfway never
 * sends the same request twice. A failure updates every copy. Returns undefined when there is no file.
 */
export async function retryPending({
  file,
  sink,
  includePossiblyDelivered = false,
  check,
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
    const requests = pendingRequests(pendingEntries(snapshot));
    const { send, heldBack } = retryPlan(requests, includePossiblyDelivered);
    check?.(send);
    const snapshotIds = new Set(requests.flatMap((request) => request.copies.map((copy) => copy.id)));
    const deliveredIds = new Set<string>();
    const failures = new Map<string, Failure>();
    let delivered = 0;
    let failed = 0;
    let skipped = 0;
    let markerErrors = 0;
    onStart?.(send.length);

    for (const [index, request] of send.entries()) {
      let outcome: RetryOutcome;
      if (!stillPending(await readQueue(file), request)) {
        outcome = { kind: "skipped", why: "delivered meanwhile (the visitor sent it again)" };
        skipped++;
      } else {
        const result = await sink.send(request.latest.request);
        if (result.ok) {
          outcome = { kind: "delivered" };
          delivered++;
          for (const copy of request.copies) deliveredIds.add(copy.id);
          // The copies' own fingerprint, so the marker supersedes exactly the copies that were grouped.
          const marker = {
            ...deliveredMarker(request.latest.request, "leads-cli", now()),
            fingerprint: request.fingerprint,
          };
          try {
            await appendQueueLines(file, serializeLine(marker));
          } catch {
            markerErrors++;
          }
        } else {
          const possiblyDelivered = Boolean(result.possiblyDelivered);
          outcome = {
            kind: "failed",
            reason: result.reason,
            ...(result.status ? { status: result.status } : {}),
            possiblyDelivered,
          };
          failed++;
          const failure = { reason: result.reason, at: now(), possiblyDelivered };
          for (const copy of request.copies) failures.set(copy.id, failure);
        }
      }
      onProgress?.(index + 1, send.length, outcome, request);
    }

    const rewritten = await rewriteQueue(file, (current) => {
      const text = compactQueue(current, {
        drop: (entry) => deliveredIds.has(entry.id),
        update: (entry) => {
          const failure = failures.get(entry.id);
          if (!failure) return entry;
          return {
            ...entry,
            // A resend that timed out may have reached the function too.
            possiblyDelivered: entry.possiblyDelivered || failure.possiblyDelivered,
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
      requests: requests.length,
      copies: snapshotIds.size,
      attempted: send.length,
      possiblyDeliveredSent: send.filter((request) => request.possiblyDelivered).length,
      delivered,
      skipped,
      failed,
      heldBack: heldBack.length,
      remaining: rewritten?.remaining ?? 0,
      addedMeanwhile: rewritten?.addedMeanwhile ?? 0,
      unreadable: rewritten?.unreadable ?? [],
      markerErrors,
    };
  } finally {
    await releaseRun().catch(() => undefined);
  }
}
