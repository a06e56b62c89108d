import { appendFile } from "node:fs/promises";
import { dirname } from "node:path";

import type { ContactRequest } from "~/lib/contact/schema";
import type { ContactSink, SendResult } from "~/lib/contact/sink.server";
import { ensureDirectory, errorCode, INBOX_WRITE_DEADLINE_MS } from "~/lib/files.server";
import { createWriteQueue } from "~/lib/write-queue.server";

export interface InboxSink extends ContactSink {
  /** Resolves when every line accepted so far is on disk (used on shutdown and in tests). */
  flush(): Promise<void>;
}

/**
 * The embedded default when no Supabase project is configured: each request becomes
 * one JSON line in a local file. Writes go through one queue (`~/lib/write-queue.server`), so
 * lines from concurrent submissions never interleave and none is lost.
 */
export function createInboxSink(
  file: string,
  now: () => Date = () => new Date(),
  deadlineMs = INBOX_WRITE_DEADLINE_MS,
): InboxSink {
  const writes = createWriteQueue();
  let directoryReady: Promise<unknown> | undefined;

  const write = (line: string) => async () => {
    directoryReady ??= ensureDirectory(dirname(file));
    try {
      await directoryReady;
    } catch (error) {
      directoryReady = undefined;
      throw error;
    }
    await appendFile(file, line, { encoding: "utf8", mode: 0o600 });
  };

  return {
    mode: "inbox-file",
    async send(request: ContactRequest): Promise<SendResult> {
      const line = JSON.stringify({ receivedAt: now().toISOString(), ...request }) + "\n";
      try {
        // A disk that does not answer must not hold the visitor: the action then keeps the
        // request in the undelivered file (or the log), as for any failed send.
        await writes.run(write(line), { ms: deadlineMs, what: "inbox write" });
        return { ok: true };
      } catch (error) {
        const code = errorCode(error);
        // The line may still be written once the disk answers.
        return {
          ok: false,
          reason: "unknown",
          detail: `inbox write failed: ${code}`,
          possiblyDelivered: code === "ETIMEDOUT",
        };
      }
    },
    flush: writes.flush,
  };
}
