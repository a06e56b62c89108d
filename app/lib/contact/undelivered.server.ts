import type { ContactRequest } from "~/lib/contact/schema";
import type { ContactSink, SendResult } from "~/lib/contact/sink.server";
import {
  appendQueueLines,
  appendWhileLocked,
  DEFAULT_LOCK_TIMING,
  type LockTiming,
  readQueue,
  withQueueLock,
} from "~/lib/contact/undelivered-file.server";
import {
  deliveredMarker,
  fingerprintOf,
  type ParsedQueue,
  pendingEntries,
  serializeLine,
  undeliveredEntry,
} from "~/lib/contact/undelivered-format.server";
import { errorCode, UNDELIVERED_WRITE_DEADLINE_MS } from "~/lib/files.server";
import { createWriteQueue } from "~/lib/write-queue.server";

type SendFailureResult = Extract<SendResult, { ok: false }>;

/** Where a request the function did not confirm ended up. */
export type KeptIn = "file" | "stderr";

export interface UndeliveredQueue {
  /**
   * Appends the request to the undelivered file. Never throws: if the file cannot be written,
   * the request is logged in full to stderr, the one place a lead's content reaches the log.
   */
  keep(
    request: ContactRequest,
    failure: SendFailureResult,
    context: { sink: ContactSink["mode"]; requestId?: string },
  ): Promise<KeptIn>;
  /**
   * After a successful send: if a kept copy of the same request is pending, appends a
   * "delivered" marker so that it no longer is. Never throws (the visitor's request was sent).
   */
  markDelivered(request: ContactRequest): Promise<void>;
  /** Resolves when every write accepted so far is done (tests, shutdown). */
  flush(): Promise<void>;
}

export interface UndeliveredQueueOptions {
  file: string;
  now?: () => Date;
  /** The last resort; console.error by default. */
  logError?: (line: string) => void;
  lockTiming?: LockTiming;
  /** How long a request waits for a write before giving up on it (the last resort then applies). */
  deadlineMs?: number;
}

/**
 * The server's writer of the undelivered file. Writes go through one queue
 * (`~/lib/write-queue.server`, as the inbox's do), so concurrent failures never interleave, and
 * each takes the file's lock, so the leads CLI can rewrite the file while the server runs.
 */
export function createUndeliveredQueue({
  file,
  now = () => new Date(),
  logError = (line) => console.error(line),
  lockTiming = DEFAULT_LOCK_TIMING,
  deadlineMs = UNDELIVERED_WRITE_DEADLINE_MS,
}: UndeliveredQueueOptions): UndeliveredQueue {
  const writes = createWriteQueue();

  return {
    async keep(request, failure, context) {
      const entry = undeliveredEntry(request, failure, { ...context, at: now() });
      try {
        await writes.run(() => appendQueueLines(file, serializeLine(entry), lockTiming), {
          ms: deadlineMs,
          what: "undelivered write",
        });
        return "file";
      } catch (error) {
        // Last resort (docs/production.md): the whole request, so that it can be recovered from the log.
        logError(
          JSON.stringify({
            event: "contact_undelivered_not_saved",
            file,
            error: errorCode(error),
            entry,
          }),
        );
        return "stderr";
      }
    },

    async markDelivered(request) {
      const fingerprint = fingerprintOf(request);
      try {
        await writes.run(
          async () => {
            const hasPending = (queue: ParsedQueue | undefined) =>
              Boolean(queue && pendingEntries(queue).some((entry) => entry.fingerprint === fingerprint));
            // Most successful sends have nothing kept: decided without the lock, then confirmed under it.
            if (!hasPending(await readQueue(file))) return;
            await withQueueLock(
              file,
              async () => {
                if (!hasPending(await readQueue(file))) return;
                await appendWhileLocked(file, serializeLine(deliveredMarker(request, "server", now())));
              },
              lockTiming,
            );
          },
          { ms: deadlineMs, what: "undelivered marker" },
        );
      } catch (error) {
        logError(
          JSON.stringify({ event: "undelivered_mark_failed", file, fingerprint, error: errorCode(error) }),
        );
      }
    },

    flush: writes.flush,
  };
}
