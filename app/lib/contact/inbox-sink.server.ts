import { appendFile, mkdir } from "node:fs/promises";
import { dirname } from "node:path";

import type { ContactRequest } from "~/lib/contact/schema";
import type { ContactSink, SendResult } from "~/lib/contact/sink.server";

export interface InboxSink extends ContactSink {
  /** Resolves when every line accepted so far is on disk (used on shutdown and in tests). */
  flush(): Promise<void>;
}

/**
 * The embedded default when no Supabase project is configured: each request becomes
 * one JSON line in a local file. Writes go through one queue, so lines from concurrent
 * submissions never interleave and none is lost.
 */
export function createInboxSink(file: string, now: () => Date = () => new Date()): InboxSink {
  let queue: Promise<unknown> = Promise.resolve();
  let directoryReady: Promise<unknown> | undefined;

  const write = (line: string) => async () => {
    directoryReady ??= mkdir(dirname(file), { recursive: true });
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
      const task = queue.then(write(line));
      // The next write waits for this one whether it succeeds or not.
      queue = task.catch(() => undefined);
      try {
        await task;
        return { ok: true };
      } catch (error) {
        const code = error && typeof error === "object" && "code" in error ? String(error.code) : "unknown";
        return { ok: false, reason: "unknown", detail: `inbox write failed: ${code}` };
      }
    },
    flush: () => queue.then(() => undefined),
  };
}
