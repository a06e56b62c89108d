import { describe, expect, it } from "vitest";

import {
  compactQueue,
  fingerprintOf,
  parseQueue,
  pendingEntries,
  serializeLine,
  undeliveredEntry,
  unreadableLines,
} from "~/lib/contact/undelivered-format.server";

import { at, delivered, failed, request } from "./undelivered-fixtures";

describe("what makes two submissions the same request", () => {
  it("the same e-mail in any case and the same message", () => {
    expect(fingerprintOf(request({ email: "ADA@Example.com" }))).toBe(fingerprintOf(request()));
    expect(fingerprintOf(request({ name: "Someone else", phone: "123" }))).toBe(fingerprintOf(request()));
  });

  it("a different message or e-mail is another request", () => {
    expect(fingerprintOf(request({ message: "Another message entirely." }))).not.toBe(
      fingerprintOf(request()),
    );
    expect(fingerprintOf(request({ email: "grace@example.com" }))).not.toBe(fingerprintOf(request()));
  });
});

describe("a kept entry", () => {
  it("holds the eight fields exactly as sent, when and why it failed", () => {
    const entry = undeliveredEntry(
      request(),
      { reason: "http", status: 503 },
      { sink: "supabase", requestId: "req-1", at },
    );
    expect(entry).toEqual({
      kind: "undelivered",
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      fingerprint: fingerprintOf(request()),
      failedAt: "2026-01-02T03:04:05.000Z",
      reason: "http",
      functionStatus: 503,
      possiblyDelivered: false,
      sink: "supabase",
      requestId: "req-1",
      request: request(),
    });
  });

  it("a timeout is marked as possibly delivered", () => {
    expect(failed(request(), "timeout").possiblyDelivered).toBe(true);
  });
});

describe("supersession: pending unless a later delivery of the same request", () => {
  it("an entry followed by a delivered marker of the same request is no longer pending", () => {
    const queue = parseQueue(serializeLine(failed(request())) + serializeLine(delivered(request())));
    expect(pendingEntries(queue)).toEqual([]);
  });

  it("a marker only supersedes what came before it: a later failure is pending again", () => {
    const later = failed(request());
    const queue = parseQueue(
      serializeLine(failed(request())) + serializeLine(delivered(request())) + serializeLine(later),
    );
    expect(pendingEntries(queue).map((entry) => entry.id)).toEqual([later.id]);
  });

  it("a marker of another request changes nothing", () => {
    const entry = failed(request());
    const queue = parseQueue(serializeLine(entry) + serializeLine(delivered(request({ message: "Other." }))));
    expect(pendingEntries(queue).map((e) => e.id)).toEqual([entry.id]);
  });

  it("one delivery supersedes every earlier copy of the same request", () => {
    const other = failed(request({ email: "grace@example.com" }));
    const queue = parseQueue(
      [failed(request()), other, failed(request({ email: "ADA@example.com" })), delivered(request())]
        .map(serializeLine)
        .join(""),
    );
    expect(pendingEntries(queue).map((e) => e.id)).toEqual([other.id]);
  });
});

describe("reading the file", () => {
  it("numbers lines as an editor does and reports unreadable ones without dropping them", () => {
    const entry = failed(request());
    const text = `${serializeLine(entry)}\n{"kind":"undelivered","id":"x"}\nnot json at all\r\n[1,2]\n`;
    const queue = parseQueue(text);
    expect(pendingEntries(queue).map((e) => e.id)).toEqual([entry.id]);
    expect(unreadableLines(queue).map(({ line, raw }) => ({ line, raw }))).toEqual([
      { line: 3, raw: '{"kind":"undelivered","id":"x"}' },
      { line: 4, raw: "not json at all" },
      { line: 5, raw: "[1,2]" },
    ]);
  });

  it("compaction keeps pending entries and unreadable lines in order, and drops the rest", () => {
    const gone = failed(request());
    const stays = failed(request({ email: "grace@example.com" }));
    const text =
      serializeLine(gone) +
      "broken line\n" +
      serializeLine(stays) +
      serializeLine(delivered(request())) +
      "{truncated";
    const compacted = compactQueue(parseQueue(text), {
      update: (entry) => ({ ...entry, attempts: 1 }),
    });
    expect(compacted).toBe(`broken line\n${JSON.stringify({ ...stays, attempts: 1 })}\n{truncated\n`);
    expect(compactQueue(parseQueue(text), { drop: (entry) => entry.id === stays.id })).toBe(
      "broken line\n{truncated\n",
    );
  });
});
