import { mkdtemp, readFile, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import {
  appendQueueLines,
  countPending,
  readQueue,
  rewriteQueue,
} from "~/lib/contact/undelivered-file.server";
import {
  compactQueue,
  pendingEntries,
  serializeLine,
  unreadableLines,
} from "~/lib/contact/undelivered-format.server";

import { delivered, failed, request } from "./undelivered-fixtures";

const file = async () =>
  join(await mkdtemp(join(tmpdir(), "undelivered-file-")), "data", "undelivered.jsonl");

describe("the file on disk", () => {
  it("appends create the directory and a file only its owner can read (0600)", async () => {
    const path = await file();
    await appendQueueLines(path, serializeLine(failed(request())));
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(await countPending(path)).toBe(1);
  });

  it("an append after a line cut short (a writer died mid-line) starts on a new line", async () => {
    const path = await file();
    await appendQueueLines(path, serializeLine(failed(request())));
    await writeFile(path, '{"kind":"undelivered","id":', { flag: "a" });
    const next = failed(request({ email: "grace@example.com" }));
    await appendQueueLines(path, serializeLine(next));
    const queue = (await readQueue(path))!;
    expect(pendingEntries(queue)).toHaveLength(2);
    expect(unreadableLines(queue).map((line) => line.line)).toEqual([2]);
  });

  it("a missing file reads as undefined and counts 0 pending", async () => {
    const path = await file();
    expect(await readQueue(path)).toBeUndefined();
    expect(await countPending(path)).toBe(0);
  });

  it("no line is lost while one writer appends and another rewrites the file, each taking the lock", async () => {
    const path = await file();
    const count = 60;
    // The server's side: one append after another, as its queue does. Its appends are apart in
    // real life (each follows a failed call to the function): the pause lets the other side in
    // between them, instead of leaving it to how the lock's retries happen to fall.
    const appending = (async () => {
      for (let i = 0; i < count; i++) {
        await appendQueueLines(
          path,
          serializeLine(failed(request({ message: `Concurrent message number ${i}.` }))),
        );
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    })();
    // The CLI's side: rewrites that change every entry, as long as the appends go on. Each notes
    // how many entries it found, to show that the two sides really overlapped.
    const seen: number[] = [];
    let done = false;
    void appending.finally(() => (done = true));
    while (!done) {
      await rewriteQueue(path, (queue) => {
        seen.push(pendingEntries(queue).length);
        return {
          text: compactQueue(queue, {
            update: (entry) => ({ ...entry, attempts: (entry.attempts ?? 0) + 1 }),
          }),
          result: undefined,
        };
      });
    }
    await appending;
    expect(
      seen.some((n) => n > 0 && n < count),
      `entries seen by each rewrite: ${seen.join(" ")}`,
    ).toBe(true);
    const queue = (await readQueue(path))!;
    expect(unreadableLines(queue)).toEqual([]);
    const messages = pendingEntries(queue).map((entry) => entry.request.message);
    expect(new Set(messages).size).toBe(count);
    expect(messages).toHaveLength(count);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
  });

  it("a rewrite replaces the file atomically with what the transform returns, from the current content", async () => {
    const path = await file();
    const entry = failed(request());
    await appendQueueLines(path, serializeLine(entry) + serializeLine(delivered(request())));
    const result = await rewriteQueue(path, (queue) => ({
      text: compactQueue(queue),
      result: pendingEntries(queue).length,
    }));
    expect(result).toBe(0);
    expect(await readFile(path, "utf8")).toBe("");
  });
});
