import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import { type AppServer, startAppServer } from "../support/app-server";
import { type FakeFunction, startFakeFunction } from "../support/fake-function";

const form = (overrides: Record<string, string> = {}) =>
  new URLSearchParams({
    name: "Grace Hopper",
    email: "grace@example.com",
    company: "Navy",
    website: "",
    companySize: "",
    industry: "",
    phone: "",
    message: "Please automate our compiler paperwork, thank you.",
    ...overrides,
  });

const exited = (server: AppServer) =>
  new Promise<number | null>((resolve) => {
    if (server.process.exitCode !== null) return resolve(server.process.exitCode);
    server.process.once("exit", (code) => resolve(code));
  });

async function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("graceful shutdown on SIGTERM", () => {
  let server: AppServer | undefined;
  let fake: FakeFunction | undefined;
  afterEach(async () => {
    await server?.stop("SIGKILL");
    await fake?.close();
    server = undefined;
    fake = undefined;
  });

  it("lets a request waiting on a slow function finish, then exits 0", async () => {
    fake = await startFakeFunction();
    server = await startAppServer({
      SUPABASE_URL: fake.url,
      SUPABASE_ANON_KEY: "shutdown-key",
      CONTACT_FUNCTION_TIMEOUT_MS: "10000",
      CONTACT_INBOX_FILE: join(mkdtempSync(join(tmpdir(), "shutdown-")), "inbox.jsonl"),
    });
    fake.setMode({ kind: "slow", delayMs: 1_500 });
    const exit = exited(server);

    // Not followed: the redirect's page is asked for after the stop, when nothing listens.
    const inFlight = fetch(`${server.url}/?index`, { method: "POST", body: form(), redirect: "manual" });
    await until(() => fake!.requests.length === 1);
    server.process.kill("SIGTERM");

    const res = await inFlight;
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/?contact=sent#contact-form");
    expect(await exit).toBe(0);
    // After the stop, nothing listens any more.
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
  });

  it("with the inbox file, every accepted request is written as one whole line before exit", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "shutdown-inbox-")), "inbox.jsonl");
    server = await startAppServer({ CONTACT_INBOX_FILE: file, RATE_LIMIT_GLOBAL_PER_MINUTE: "100000" });
    const exit = exited(server);
    // Long messages make each append a larger write, so SIGTERM lands while lines are being written.
    const count = 40;
    const requests = Array.from({ length: count }, (_, i) =>
      fetch(`${server!.url}/?index`, {
        method: "POST",
        body: form({ message: `shutdown-${i} ${"x".repeat(1_900)}` }),
        redirect: "manual",
      }).then(
        async (res) => ({ i, status: res.status, text: await res.text() }),
        () => ({ i, status: 0, text: "" }),
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, 150));
    server.process.kill("SIGTERM");
    const results = await Promise.all(requests);
    expect(await exit).toBe(0);

    const accepted = results.filter((r) => r.status === 303).map((r) => r.i);
    const answeredBeforeStop = results.filter((r) => r.status !== 0).length;
    console.log(
      `shutdown: ${accepted.length} of ${count} accepted and written, ${count - answeredBeforeStop} refused after SIGTERM`,
    );
    // Whatever the server started, it finished: no 5xx, no answer cut off.
    expect(results.filter((r) => r.status >= 500)).toEqual([]);
    for (const r of results.filter((r) => r.status !== 0)) expect(r.status).toBe(303);

    const content = readFileSync(file, "utf8");
    expect(content.endsWith("\n")).toBe(true);
    const lines = content.split("\n").filter(Boolean);
    const written = lines.map((line) => JSON.parse(line) as { message: string });
    for (const entry of written) expect(entry.message).toMatch(/^shutdown-\d+ x{1900}$/);
    const tokens = written.map((entry) => Number(/^shutdown-(\d+)/.exec(entry.message)?.[1]));
    expect(new Set(tokens).size).toBe(tokens.length);
    expect(tokens.sort((a, b) => a - b)).toEqual(accepted.sort((a, b) => a - b));
    expect(accepted.length).toBeGreaterThan(0);
  });
});
