import { describe, expect, it } from "vitest";

import { createWriteQueue } from "~/lib/write-queue.server";

const roomy = { ms: 1_000, what: "a write" };

/** A task that resolves only when the test says so, and notes when it started. */
function gate<T>(started: string[], name: string, value: T) {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  const task = async () => {
    started.push(name);
    await opened;
    return value;
  };
  return { task, open };
}

describe("the write queue", () => {
  it("runs writes one at a time, in the order they were accepted", async () => {
    const queue = createWriteQueue();
    const events: string[] = [];
    const first = gate(events, "first", 1);
    const writes = [
      queue.run(first.task, roomy),
      queue.run(async () => (events.push("second"), 2), roomy),
      queue.run(async () => (events.push("third"), 3), roomy),
    ];
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(events).toEqual(["first"]);
    first.open();
    await expect(Promise.all(writes)).resolves.toEqual([1, 2, 3]);
    expect(events).toEqual(["first", "second", "third"]);
  });

  it("a failed write is reported to its caller and does not stop the next one", async () => {
    const queue = createWriteQueue();
    const failing = queue.run(() => Promise.reject(new Error("disk full")), roomy);
    const next = queue.run(async () => "written", roomy);
    await expect(failing).rejects.toThrow("disk full");
    await expect(next).resolves.toBe("written");
  });

  it("the deadline stops the caller waiting; the write still completes, and the next waits for it", async () => {
    const queue = createWriteQueue();
    const events: string[] = [];
    const slow = gate(events, "slow", "late");
    const waiting = queue.run(slow.task, { ms: 20, what: "a hung write" });
    const after = queue.run(async () => (events.push("after"), "next"), roomy);
    await expect(waiting).rejects.toMatchObject({
      code: "ETIMEDOUT",
      message: "a hung write did not finish within 20 ms",
    });
    expect(events).toEqual(["slow"]);
    slow.open();
    await expect(after).resolves.toBe("next");
    expect(events).toEqual(["slow", "after"]);
  });

  it("flush resolves once every accepted write is done, failed or past its deadline included", async () => {
    const queue = createWriteQueue();
    const events: string[] = [];
    const slow = gate(events, "slow", undefined);
    queue.run(slow.task, { ms: 10, what: "a slow write" }).catch(() => undefined);
    queue.run(() => Promise.reject(new Error("disk full")), roomy).catch(() => undefined);
    queue.run(async () => void events.push("last"), roomy).catch(() => undefined);
    let flushed = false;
    const flushing = queue.flush().then(() => (flushed = true));
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(flushed).toBe(false);
    slow.open();
    await flushing;
    expect(events).toEqual(["slow", "last"]);
  });

  it("flush on an idle queue resolves at once", async () => {
    await expect(createWriteQueue().flush()).resolves.toBeUndefined();
  });
});
