import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import type { ContactRequest } from "~/lib/contact/schema";
import { createUndeliveredQueue } from "~/lib/contact/undelivered.server";
import { readQueue } from "~/lib/contact/undelivered-file.server";
import { fingerprintOf, pendingEntries } from "~/lib/contact/undelivered-format.server";

const request = (overrides: Partial<ContactRequest> = {}): ContactRequest => ({
  name: "Ada Lovelace",
  email: "ada@example.com",
  phone: "+44 20 7946 0000",
  company: "Analytical Engines",
  website: "https://example.com",
  companySize: "11-50",
  industry: "Manufacturing",
  message: 'We want to automate our invoicing.\nAnd our reports, with "quotes", commas.',
  ...overrides,
});

const dir = () => mkdtemp(join(tmpdir(), "undelivered-queue-"));
const now = () => new Date("2026-03-04T05:06:07.000Z");

async function lines(file: string): Promise<Record<string, unknown>[]> {
  const text = await readFile(file, "utf8");
  expect(text.endsWith("\n")).toBe(true);
  return text
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe("the server's undelivered queue", () => {
  it("keeps a failed request as one JSON line with the exact fields", async () => {
    const file = join(await dir(), "nested", "undelivered.jsonl");
    const queue = createUndeliveredQueue({ file, now });
    const kept = await queue.keep(
      request(),
      { ok: false, reason: "http", status: 500 },
      { sink: "supabase", requestId: "r-1" },
    );
    expect(kept).toBe("file");
    expect(await lines(file)).toEqual([
      {
        kind: "undelivered",
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        fingerprint: fingerprintOf(request()),
        failedAt: "2026-03-04T05:06:07.000Z",
        reason: "http",
        functionStatus: 500,
        possiblyDelivered: false,
        sink: "supabase",
        requestId: "r-1",
        request: request(),
      },
    ]);
  });

  it("marks a timeout, and whatever the sink says may have arrived, as possibly delivered", async () => {
    const file = join(await dir(), "undelivered.jsonl");
    const queue = createUndeliveredQueue({ file, now });
    await queue.keep(request(), { ok: false, reason: "timeout" }, { sink: "supabase" });
    await queue.keep(
      request(),
      { ok: false, reason: "unknown", possiblyDelivered: true },
      { sink: "supabase" },
    );
    await queue.keep(request(), { ok: false, reason: "network" }, { sink: "supabase" });
    expect((await lines(file)).map((line) => [line.reason, line.possiblyDelivered])).toEqual([
      ["timeout", true],
      ["unknown", true],
      ["network", false],
    ]);
  });

  it("concurrent failures become whole lines, none interleaved or lost", async () => {
    const file = join(await dir(), "undelivered.jsonl");
    const queue = createUndeliveredQueue({ file, now });
    const count = 60;
    const big = "x".repeat(4_000);
    const results = await Promise.all(
      Array.from({ length: count }, (_, i) =>
        queue.keep(
          request({ message: `message ${i} ${big}` }),
          { ok: false, reason: "network" },
          { sink: "supabase" },
        ),
      ),
    );
    expect(results.every((kept) => kept === "file")).toBe(true);
    const written = await lines(file);
    expect(written).toHaveLength(count);
    const numbers = written.map((line) =>
      Number(/^message (\d+) /.exec((line.request as ContactRequest).message)?.[1]),
    );
    expect(new Set(numbers).size).toBe(count);
  });

  it("when the file cannot be written, logs the whole request to stderr as a last resort", async () => {
    const blocker = join(await dir(), "not-a-directory");
    await writeFile(blocker, "a file where a directory should be");
    const logged: string[] = [];
    const queue = createUndeliveredQueue({
      file: join(blocker, "undelivered.jsonl"),
      now,
      logError: (l) => logged.push(l),
    });
    const kept = await queue.keep(
      request(),
      { ok: false, reason: "http", status: 502 },
      { sink: "supabase", requestId: "r-2" },
    );
    expect(kept).toBe("stderr");
    expect(logged).toHaveLength(1);
    const line = JSON.parse(logged[0]!) as {
      event: string;
      error: string;
      entry: { request: ContactRequest; requestId: string };
    };
    expect(line.event).toBe("contact_undelivered_not_saved");
    // A file where a directory should be: ENOTDIR or EEXIST, depending on where the path breaks.
    expect(["ENOTDIR", "EEXIST"]).toContain(line.error);
    expect(line.entry.request).toEqual(request());
    expect(line.entry.requestId).toBe("r-2");
  });

  it("the next write still works after one failed", async () => {
    const base = await dir();
    const blocker = join(base, "blocked");
    await writeFile(blocker, "");
    const logged: string[] = [];
    const bad = createUndeliveredQueue({
      file: join(blocker, "u.jsonl"),
      now,
      logError: (l) => logged.push(l),
    });
    expect(await bad.keep(request(), { ok: false, reason: "network" }, { sink: "supabase" })).toBe("stderr");
    const good = createUndeliveredQueue({ file: join(base, "u.jsonl"), now });
    expect(await good.keep(request(), { ok: false, reason: "network" }, { sink: "supabase" })).toBe("file");
  });
});

describe("a later successful send of the same request", () => {
  it("makes the kept copy no longer pending (same e-mail in any case, same message)", async () => {
    const file = join(await dir(), "undelivered.jsonl");
    const queue = createUndeliveredQueue({ file, now });
    await queue.keep(request(), { ok: false, reason: "http", status: 500 }, { sink: "supabase" });
    const other = request({ email: "grace@example.com" });
    await queue.keep(other, { ok: false, reason: "http", status: 500 }, { sink: "supabase" });

    await queue.markDelivered(request({ email: "Ada@Example.COM", name: "Ada L." }));
    const pending = pendingEntries((await readQueue(file))!);
    expect(pending.map((entry) => entry.request.email)).toEqual(["grace@example.com"]);
    const written = await lines(file);
    expect(written.at(-1)).toEqual({
      kind: "delivered",
      fingerprint: fingerprintOf(request()),
      deliveredAt: "2026-03-04T05:06:07.000Z",
      by: "server",
    });
  });

  it("writes nothing when nothing of it is pending (no file is created)", async () => {
    const file = join(await dir(), "undelivered.jsonl");
    const queue = createUndeliveredQueue({ file, now });
    await queue.markDelivered(request());
    await expect(readFile(file)).rejects.toMatchObject({ code: "ENOENT" });

    await queue.keep(request(), { ok: false, reason: "http" }, { sink: "supabase" });
    await queue.markDelivered(request({ message: "A different message." }));
    expect(await lines(file)).toHaveLength(1);
  });
});
