import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, describe, expect, it } from "vitest";

import { leadStoreEnv, startAppServer } from "../support/app-server";
import { serverBuildDir } from "../support/build-output";
import { type FakeFunction, startFakeFunction } from "../support/fake-function";
import { filesHolding, readLeads } from "../support/leads";
import { killTree } from "../support/npm";
import { freePort, root } from "../support/server-process.mjs";

/**
 * Retention bounds every state (decisions, "Personal data"): a lead never confirmed is erased
 * LEADS_UNDELIVERED_RETENTION_DAYS after it arrived, by the server itself, within a minute of its
 * start, and no file of the data folder holds its address afterwards (SQLite's checkpoint runs on
 * every retention pass). The clock runs two days ahead (libfaketime), as on the day it is due.
 */
describe("a pending lead past LEADS_UNDELIVERED_RETENTION_DAYS", () => {
  const dir = mkdtempSync(join(tmpdir(), "retention-"));
  const env = leadStoreEnv(dir);
  const address = "retention.subject@example.com";
  let fake: FakeFunction | undefined;
  let pid: number | undefined;
  afterAll(async () => {
    if (pid) killTree(pid);
    await fake?.close();
  });

  it("is erased from every file of the data folder within two minutes of a start two days later", async () => {
    fake = await startFakeFunction();
    fake.setMode({ kind: "status", status: 503 });
    const first = await startAppServer({
      ...env,
      SUPABASE_URL: fake.url,
      SUPABASE_ANON_KEY: "test-anon-key",
    });
    const posted = await fetch(`${first.url}/?index`, {
      method: "POST",
      redirect: "manual",
      body: new URLSearchParams({
        name: "Retention Subject",
        email: address,
        message: "Kept, then bounded.",
      }),
    });
    expect(posted.status).toBe(502);
    expect(await first.stop()).toBe(0);
    expect(readLeads(env.LEADS_DATABASE_FILE!).map((lead) => [lead.email, lead.state])).toEqual([
      [address, "pending"],
    ]);
    // The positive control: the address is on disk before the retention pass.
    expect(filesHolding(dir, address)).not.toEqual([]);

    const port = await freePort();
    const server = spawn("faketime", ["-f", "+2d", process.execPath, `${root}scripts/start.mjs`], {
      cwd: root,
      env: {
        ...process.env,
        ...env,
        NODE_ENV: "production",
        REMIX_BUILD_DIR: serverBuildDir,
        PORT: String(port),
        HOST: "127.0.0.1",
        SUPABASE_URL: fake.url,
        SUPABASE_ANON_KEY: "test-anon-key",
        CONTACT_RETRY_INITIAL_SECONDS: "3600",
        LEADS_UNDELIVERED_RETENTION_DAYS: "1",
        // Only the wall clock runs ahead: Node's timers run on the monotonic one.
        FAKETIME_DONT_FAKE_MONOTONIC: "1",
        DATABASE_URL: "",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    pid = server.pid;
    let output = "";
    server.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    server.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    // Within two minutes of the start: the retention pass is the dispatcher's first.
    await expect
      .poll(() => /"event":"lead_retention".*"undelivered":1/.test(output), {
        timeout: 120_000,
        interval: 200,
      })
      .toBe(true);
    expect(output).toMatch(/"event":"lead_retention"[^\n]*"copiesGone":true/);
    expect(readLeads(env.LEADS_DATABASE_FILE!)).toEqual([]);
    expect(filesHolding(dir, address)).toEqual([]);
    expect(fake.requests).toHaveLength(1);
  });
});
