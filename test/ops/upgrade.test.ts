import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import { type AppServer, leadStoreEnv, startAppServer } from "../support/app-server";
import { type FakeFunction, startFakeFunction } from "../support/fake-function";
import { readLeads } from "../support/leads";

/**
 * The upgrade (issue 23): a data folder written by the release before the lead store (the
 * undelivered file and the inbox file, one JSON object per line) is imported at the first start,
 * each file renamed and never deleted; a second start imports nothing twice; pending leads are then
 * delivered by the dispatcher, possibly delivered ones stay held.
 */

const request = (name: string, email: string, message: string) => ({
  name,
  email,
  phone: "+1 757 555 0101",
  company: "Example Co",
  website: "",
  companySize: "",
  industry: "",
  message,
});
const fingerprint = (email: string, message: string) =>
  createHash("sha256")
    .update(JSON.stringify([email.toLowerCase(), message]))
    .digest("hex");

/** Lines exactly as the previous release wrote them. */
function writePreviousRelease(dir: string) {
  const pending = request("Pending Person", "pending@example.com", "Failed at the function, retry me.");
  const held = request("Held Person", "held@example.com", "Timed out: maybe it arrived.");
  const superseded = request("Done Person", "done@example.com", "Failed once, then delivered.");
  const entry = (id: string, r: ReturnType<typeof request>, extra: Record<string, unknown>) => ({
    kind: "undelivered",
    id,
    fingerprint: fingerprint(r.email, r.message),
    failedAt: "2026-11-20T10:00:00.000Z",
    reason: "http",
    functionStatus: 500,
    possiblyDelivered: false,
    sink: "supabase",
    requestId: `req-${id.slice(0, 4)}`,
    request: r,
    ...extra,
  });
  const undelivered = [
    entry("11111111-1111-4111-8111-111111111111", pending, {}),
    entry("22222222-2222-4222-8222-222222222222", held, { reason: "timeout", possiblyDelivered: true }),
    entry("33333333-3333-4333-8333-333333333333", superseded, {}),
    // A second copy of the pending request (the visitor tried again): one lead.
    entry("44444444-4444-4444-8444-444444444444", pending, { failedAt: "2026-11-20T10:05:00.000Z" }),
    {
      kind: "delivered",
      fingerprint: fingerprint(superseded.email, superseded.message),
      deliveredAt: "2026-11-20T11:00:00.000Z",
      by: "leads-cli",
    },
  ];
  writeFileSync(
    join(dir, "undelivered-contact-requests.jsonl"),
    undelivered.map((line) => JSON.stringify(line)).join("\n") + "\n",
  );
  const inbox = [
    {
      receivedAt: "2026-11-19T09:00:00.000Z",
      ...request("Inbox One", "one@example.com", "First inbox lead, hello."),
    },
    {
      receivedAt: "2026-11-19T09:30:00.000Z",
      ...request("Inbox Two", "two@example.com", "Second inbox lead, hello."),
    },
  ];
  writeFileSync(
    join(dir, "contact-requests.jsonl"),
    inbox.map((line) => JSON.stringify(line)).join("\n") + "\n{not json: a line a person must see\n",
  );
}

describe("upgrading from the file store", () => {
  let server: AppServer | undefined;
  let fake: FakeFunction | undefined;
  afterEach(async () => {
    await server?.stop();
    await fake?.close();
    server = undefined;
    fake = undefined;
  });

  it("imports both files once, renames them, and delivers what was pending without anybody", async () => {
    const dir = mkdtempSync(join(tmpdir(), "upgrade-"));
    writePreviousRelease(dir);
    const env = leadStoreEnv(dir);

    server = await startAppServer(env);
    const summary = (rows = readLeads(env.LEADS_DATABASE_FILE!)) =>
      rows.map((row) => [row.email, row.state]).sort();
    expect(summary()).toEqual([
      ["held@example.com", "possibly_delivered"],
      ["one@example.com", "inbox"],
      ["pending@example.com", "pending"],
      ["two@example.com", "inbox"],
    ]);
    const files = readdirSync(dir).sort();
    expect(files.some((name) => name.startsWith("contact-requests.jsonl.imported-"))).toBe(true);
    expect(files.some((name) => name.startsWith("undelivered-contact-requests.jsonl.imported-"))).toBe(true);
    expect(existsSync(env.CONTACT_INBOX_FILE!)).toBe(false);
    expect(existsSync(env.CONTACT_UNDELIVERED_FILE!)).toBe(false);
    // The unreadable line is not lost: it stays in the renamed file, and the log counts it.
    const renamedInbox = files.find((name) => name.startsWith("contact-requests.jsonl.imported-"))!;
    expect(readFileSync(join(dir, renamedInbox), "utf8")).toContain("{not json");
    expect(server.output()).toContain('"unreadable":1');
    // Two copies of one request are one lead: the latest copy, as the old `leads retry` sent it.
    const pending = readLeads(env.LEADS_DATABASE_FILE!).find((row) => row.email === "pending@example.com");
    expect(pending).toMatchObject({
      id: "44444444-4444-4444-8444-444444444444",
      source: "import-undelivered",
    });
    await server.stop();

    // A second start imports nothing twice, even if a file of the old release comes back.
    writePreviousRelease(dir);
    fake = await startFakeFunction();
    server = await startAppServer({
      ...env,
      SUPABASE_URL: fake.url,
      SUPABASE_ANON_KEY: "test-anon-key",
      CONTACT_RETRY_INITIAL_SECONDS: "1",
    });
    await expect
      .poll(
        () => readLeads(env.LEADS_DATABASE_FILE!).find((row) => row.email === "pending@example.com")?.state,
        {
          timeout: 20_000,
        },
      )
      .toBe("delivered");
    const rows = readLeads(env.LEADS_DATABASE_FILE!);
    expect(rows).toHaveLength(4);
    expect(summary(rows)).toEqual([
      ["held@example.com", "possibly_delivered"],
      ["one@example.com", "inbox"],
      ["pending@example.com", "delivered"],
      ["two@example.com", "inbox"],
    ]);
    // Delivered once, with the id it had in the old file as its Idempotency-Key; the held one never sent.
    expect(fake.requests.map((call) => call.headers["idempotency-key"])).toEqual([
      "44444444-4444-4444-8444-444444444444",
    ]);
  }, 90_000);
});
