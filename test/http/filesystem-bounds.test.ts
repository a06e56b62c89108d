import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import { type AppServer, startAppServer } from "../support/app-server";
import { type FakeFunction, startFakeFunction } from "../support/fake-function";

/**
 * No request waits forever on the filesystem (issue 18). A disk that never answers is played by a
 * named pipe nobody reads: opening it blocks for good, as a write to a hung network mount does.
 * The visitor still gets the error notice, and the lead is kept as on any failure: in the
 * undelivered file, or in the log as the last resort.
 */

const form = () =>
  new URLSearchParams({
    name: "Grace Hopper",
    email: "grace@example.com",
    message: "Please automate our compiler paperwork, thank you.",
  });

const hangForever = (path: string) => {
  rmSync(path, { force: true });
  execFileSync("mkfifo", [path]);
};

describe("a disk that does not answer", () => {
  let server: AppServer | undefined;
  let fake: FakeFunction | undefined;
  afterEach(async () => {
    // The blocked writes would never finish: end the process.
    await server?.stop("SIGKILL");
    await fake?.close();
    server = undefined;
    fake = undefined;
  });

  it("the inbox: the visitor gets the error notice and the lead is kept in the undelivered file", async () => {
    const dir = mkdtempSync(join(tmpdir(), "hung-inbox-"));
    const undelivered = join(dir, "undelivered.jsonl");
    server = await startAppServer({
      CONTACT_INBOX_FILE: join(dir, "inbox.jsonl"),
      CONTACT_UNDELIVERED_FILE: undelivered,
    });
    hangForever(join(dir, "inbox.jsonl"));

    const res = await fetch(`${server.url}/?index`, { method: "POST", body: form() });
    expect(res.status).toBe(502);
    expect(await res.text()).toContain("Error Sending Message");
    const [entry] = readFileSync(undelivered, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(entry).toMatchObject({
      kind: "undelivered",
      sink: "inbox-file",
      possiblyDelivered: true,
      request: { name: "Grace Hopper", email: "grace@example.com" },
    });
    await expect.poll(() => server!.output()).toContain("inbox write failed: ETIMEDOUT");
  });

  it("the undelivered file: the visitor gets the error notice and the lead is logged in full (last resort)", async () => {
    fake = await startFakeFunction();
    const dir = mkdtempSync(join(tmpdir(), "hung-undelivered-"));
    const undelivered = join(dir, "undelivered.jsonl");
    server = await startAppServer({
      SUPABASE_URL: fake.url,
      SUPABASE_ANON_KEY: "hung-key",
      CONTACT_UNDELIVERED_FILE: undelivered,
    });
    hangForever(undelivered);
    fake.setMode({ kind: "status", status: 500 });

    const res = await fetch(`${server.url}/?index`, { method: "POST", body: form() });
    expect(res.status).toBe(502);
    expect(await res.text()).toContain("Error Sending Message");
    const line = server
      .output()
      .split("\n")
      .find((text) => text.includes('"event":"contact_undelivered_not_saved"'));
    expect(JSON.parse(line!)).toMatchObject({
      error: "ETIMEDOUT",
      entry: { request: { name: "Grace Hopper", email: "grace@example.com" } },
    });
  });
});
