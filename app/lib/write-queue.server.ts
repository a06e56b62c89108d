import { withDeadline } from "~/lib/files.server";

/**
 * The one way the server writes its files (the inbox, the undelivered file): one write at a time
 * in the order they were accepted, so lines from concurrent requests never interleave, and no
 * request waits on the disk for longer than its deadline.
 */
export interface WriteQueue {
  /**
   * Runs `task` once every write accepted before it is done, whether those succeeded or not.
   * Settles as `task` does, or rejects with an ETIMEDOUT error after `deadline.ms`: the caller
   * stops waiting, but the task still runs to its end and the writes after it wait for that.
   */
  run<T>(task: () => Promise<T>, deadline: { ms: number; what: string }): Promise<T>;
  /** Resolves when every write accepted so far is done (shutdown, tests). */
  flush(): Promise<void>;
}

export function createWriteQueue(): WriteQueue {
  let tail: Promise<unknown> = Promise.resolve();
  return {
    run(task, { ms, what }) {
      const run = tail.then(task);
      // A failed write must not stop the ones queued after it.
      tail = run.catch(() => undefined);
      return withDeadline(run, ms, what);
    },
    flush: () => tail.then(() => undefined),
  };
}
