import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import Database from "better-sqlite3";
import pg from "pg";
import { describe, expect, it, onTestFinished } from "vitest";

import { type AppServer, leadStoreEnv, startAppServer } from "../support/app-server";
import { startFakeFunction } from "../support/fake-function";
import { readLeads } from "../support/leads";
import { signalTree } from "../support/npm";
import { describeWithPostgres, startPostgres } from "../support/postgres";

/**
 * No request waits forever on the lead store, and no visitor is told a lie when it cannot keep a
 * lead (issues 18 and 23). Faults reproduced for real: another process holding the SQLite write
 * lock, a full disk (a small tmpfs filled after the server started), and a PostgreSQL server whose
 * processes are stopped with SIGSTOP (as a frozen VM looks from the network). Either way the function
 * is not called (the store may hold the lead already, under the key the dispatcher will send it
 * with: decision 032), the visitor is told it was not sent, in bounded time, and the lead goes to
 * the log in full; once the fault is gone the store comes back and the second try is delivered once.
 */

const form = (message = "Please automate our compiler paperwork, thank you.") =>
  new URLSearchParams({ name: "Grace Hopper", email: "grace@example.com", message });

const post = async (server: AppServer, body: URLSearchParams) => {
  const res = await fetch(`${server.url}/?index`, { method: "POST", body, redirect: "manual" });
  return { status: res.status, html: await res.text(), requestId: res.headers.get("x-request-id") };
};

const lines = (server: AppServer, event: string) =>
  server
    .output()
    .split("\n")
    .filter((line) => line.includes(`"event":"${event}"`))
    .map((line) => JSON.parse(line) as Record<string, unknown>);

function expectNoPersonalDataOutsideLastResort(server: AppServer) {
  const others = server
    .output()
    .split("\n")
    .filter((line) => !line.includes('"event":"contact_lead_not_saved"'))
    .join("\n");
  for (const value of ["Grace Hopper", "grace@example.com", "compiler paperwork", "database hangs"])
    expect(others).not.toContain(value);
}

const storeState = async (server: AppServer) =>
  ((await (await fetch(`${server.url}/healthz`)).json()) as { leadStore?: { state: string } }).leadStore
    ?.state;

/** Holds the SQLite file's write lock, as another process in the middle of a write would. */
/** Holds the store's write lock until the returned function, or the test's end, releases it. */
function holdWriteLock(file: string): () => void {
  const database = new Database(file);
  database.pragma("busy_timeout = 10000");
  database.prepare("begin immediate").run();
  const release = () => {
    if (!database.open) return;
    database.prepare("rollback").run();
    database.close();
  };
  onTestFinished(release);
  return release;
}

function smallDisk(size: string): { dir: string; unmount: () => void } {
  const dir = mkdtempSync(join(tmpdir(), "full-disk-"));
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", `size=${size},mode=0700`, "tmpfs", dir], { stdio: "pipe" });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`mounting a ${size} tmpfs failed: ${String((error as Error).message).split("\n")[0]}`);
  }
  return {
    dir,
    unmount: () => {
      execFileSync("umount", ["-l", dir], { stdio: "pipe" });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function fillUp(dir: string): string {
  const filler = join(dir, "filler");
  const chunk = Buffer.alloc(64 * 1024, 1);
  writeFileSync(filler, "");
  for (;;) {
    try {
      writeFileSync(filler, chunk, { flag: "a" });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOSPC") break;
      throw error;
    }
  }
  // The last bytes too, so not even a page fits.
  for (const size of [4096, 512, 1]) {
    try {
      for (;;) writeFileSync(filler, Buffer.alloc(size, 1), { flag: "a" });
    } catch {
      // full at this size
    }
  }
  return filler;
}

/** A server on `store`, with a fake function unless `inbox`; each ended when the test ends. */
async function serve(store: Record<string, string>, inbox = false) {
  const fake = inbox ? undefined : await startFakeFunction();
  if (fake) onTestFinished(() => fake.close());
  const server = await startAppServer({
    ...(fake ? { SUPABASE_URL: fake.url, SUPABASE_ANON_KEY: "bounds-key" } : {}),
    RATE_LIMIT_PER_CLIENT: "100",
    RATE_LIMIT_GLOBAL_PER_MINUTE: "1000",
    ...store,
  });
  // After the hooks the test adds later (vitest runs them last added first): a lock held, a thaw.
  onTestFinished(async () => void (await server.stop("SIGKILL")));
  return { fake: fake!, server };
}

describe("a lead store that does not answer (its write lock held by another process)", () => {
  it("the visitor is told it was not sent, the lead logged, no call; the store is not taken for down, and the second try is delivered once", async () => {
    const store = leadStoreEnv();
    const file = store.LEADS_DATABASE_FILE!;
    const { fake, server } = await serve(store);
    const release = holdWriteLock(file);

    // The function works, but the store cannot say what it holds: so no call.
    const message = "Please automate our compiler paperwork, first request.";
    const failed = await post(server, form(message));
    expect(failed.status).toBe(502);
    expect(failed.html).toContain("Error Sending Message");
    expect(fake.requests).toHaveLength(0);
    // One statement that waited past the lock is not an outage (issue 40): the store stays ready,
    // so the next post is tried at once rather than refused for the reconnect interval.
    expect(await storeState(server)).toBe("ready");
    await expect.poll(() => lines(server, "contact_lead_not_saved").length).toBe(1);
    expect(lines(server, "contact_lead_not_saved")[0]).toMatchObject({
      requestId: failed.requestId,
      lead: { name: "Grace Hopper", email: "grace@example.com", message },
    });
    expect(lines(server, "contact_submission").at(-1)).toMatchObject({
      result: "send-failed",
      keptIn: "stderr",
    });
    expect(readLeads(file)).toEqual([]);

    release();
    const kept = await post(server, form(message));
    expect(kept.status).toBe(303);
    const leads = readLeads(file);
    expect(leads).toMatchObject([{ state: "delivered", attempts: 1, message }]);
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]?.headers["idempotency-key"]).toBe(leads[0]?.id);
    expect(server.output()).not.toContain('"event":"lead_store_unavailable"');
    expectNoPersonalDataOutsideLastResort(server);
  });

  it("without a function (the store is the inbox): the error notice, never a false 'sent', and the lead logged", async () => {
    const store = leadStoreEnv();
    const { server } = await serve(store, true);
    holdWriteLock(store.LEADS_DATABASE_FILE!);

    const res = await post(server, form());
    expect(res.status).toBe(502);
    expect(res.html).toContain("Error Sending Message");
    await expect.poll(() => lines(server, "contact_lead_not_saved").length).toBe(1);
    expect(lines(server, "contact_lead_not_saved")[0]).toMatchObject({
      requestId: res.requestId,
      lead: { name: "Grace Hopper", email: "grace@example.com" },
    });
    expect(lines(server, "contact_submission").at(-1)).toMatchObject({ sink: "inbox", keptIn: "stderr" });
    // The page itself never needed the store.
    expect((await fetch(`${server.url}/`)).status).toBe(200);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    expectNoPersonalDataOutsideLastResort(server);
  });
});

describe("a full disk under the lead store", () => {
  // Mounting needs root, which CI has: elsewhere another user's run skips it, and says so.
  const inCi = process.env.CI === "true" || process.env.CI === "1";
  const cannotMount = process.getuid?.() !== 0 && !inCi;
  if (cannotMount) console.warn("\n!!! mounting a tmpfs needs root: the full-disk test is SKIPPED.\n");

  it.skipIf(cannotMount)(
    "the visitor is told it was not sent, the lead logged, no call; once space is freed, the second try is kept and delivered",
    async () => {
      const mounted = smallDisk("4m");
      onTestFinished(mounted.unmount);
      const dir = join(mounted.dir, "data");
      mkdirSync(dir);
      const store = leadStoreEnv(dir);
      const file = store.LEADS_DATABASE_FILE!;
      const { fake, server } = await serve(store);
      expect((await post(server, form("A first request, while the disk has room."))).status).toBe(303);
      expect(readLeads(file)).toHaveLength(1);

      const filler = fillUp(mounted.dir);
      const message = `A request on a full disk: ${"words ".repeat(300).trim()}`;
      const failed = await post(server, form(message));
      expect(failed.status).toBe(502);
      expect(failed.html).toContain("Error Sending Message");
      expect(fake.requests).toHaveLength(1);
      await expect
        .poll(() => server.output())
        .toMatch(/"event":"lead_store_unavailable"[^\n]*(FULL|full|ENOSPC)/);
      await expect.poll(() => lines(server, "contact_lead_not_saved").length).toBe(1);
      expect(lines(server, "contact_lead_not_saved")[0]).toMatchObject({
        requestId: failed.requestId,
        lead: { message },
      });
      expect(lines(server, "contact_submission").at(-1)).toMatchObject({
        result: "send-failed",
        keptIn: "stderr",
      });

      // Two reconnects while the disk is still full: a store that answers reads but takes no write
      // stays unavailable (it never flips to ready between two failed posts).
      await expect
        .poll(() => lines(server, "lead_store_still_unavailable").length, { timeout: 30_000, interval: 250 })
        .toBeGreaterThanOrEqual(2);
      expect(server.output()).not.toContain('"event":"lead_store_reconnected"');
      expect(await storeState(server)).not.toBe("ready");

      // The store comes back without a restart.
      rmSync(filler);
      await expect.poll(() => storeState(server), { timeout: 30_000, interval: 250 }).toBe("ready");
      expect((await post(server, form(message))).status).toBe(303);
      const leads = readLeads(file);
      expect(leads.map((lead) => lead.state)).toEqual(["delivered", "delivered"]);
      expect(leads.map((lead) => lead.message)).toEqual([
        "A first request, while the disk has room.",
        message,
      ]);
      expect(fake.requests).toHaveLength(2);
      expect(fake.requests[1]?.headers["idempotency-key"]).toBe(leads[1]?.id);
      expectNoPersonalDataOutsideLastResort(server);
    },
  );
});

async function pgLeads(url: string): Promise<{ state: string; message: string; id: string }[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ state: string; message: string; id: string }>(
      "select id, state, request->>'message' as message from leads order by received_at, id",
    );
    return rows;
  } finally {
    await client.end();
  }
}

describeWithPostgres("a PostgreSQL lead store that hangs", () => {
  let frozen: number[] = [];
  const thaw = () => {
    for (const pid of frozen.splice(0)) {
      try {
        process.kill(pid, "SIGCONT");
      } catch {
        // already gone
      }
    }
  };

  it(
    "the visitor is told it was not sent, in bounded time, no call; after SIGCONT the store comes back and the second try is delivered once",
    { timeout: 180_000 },
    async () => {
      const postgres = await startPostgres();
      onTestFinished(() => postgres.destroy());
      const url = await postgres.createDatabase();
      const { fake, server } = await serve({ DATABASE_URL: url });
      expect(await storeState(server)).toBe("ready");
      expect((await post(server, form("A first request, while the database answers."))).status).toBe(303);
      expect(await pgLeads(url)).toMatchObject([{ state: "delivered" }]);

      // Every process of the database server stops answering (connections stay open).
      frozen = signalTree(postgres.pid, "SIGSTOP");
      onTestFinished(thaw);

      const message = "A request while the database hangs.";
      const failed = await post(server, form(message));
      expect(failed.status).toBe(502);
      expect(failed.html).toContain("Error Sending Message");
      expect(fake.requests).toHaveLength(1);
      expect(await storeState(server)).toBe("unavailable");
      await expect.poll(() => lines(server, "contact_lead_not_saved").length).toBe(1);
      expect(lines(server, "contact_lead_not_saved")[0]).toMatchObject({
        requestId: failed.requestId,
        lead: { message },
      });
      // The page never needed the database.
      expect((await fetch(`${server.url}/`)).status).toBe(200);

      // The database wakes up. The connection the request gave up on was closed, so what it had
      // begun is rolled back, not committed behind the visitor's "not sent": the second try is a
      // lead like any other, delivered once under its own key.
      thaw();
      await expect.poll(() => storeState(server), { timeout: 60_000, interval: 250 }).toBe("ready");
      expect((await post(server, form(message))).status).toBe(303);
      const leads = await pgLeads(url);
      expect(leads.map((lead) => [lead.state, lead.message])).toEqual([
        ["delivered", "A first request, while the database answers."],
        ["delivered", message],
      ]);
      expect(fake.requests).toHaveLength(2);
      expect(fake.requests[1]?.headers["idempotency-key"]).toBe(leads[1]?.id);
      expectNoPersonalDataOutsideLastResort(server);
    },
  );
});
