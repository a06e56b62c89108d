import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import { type AppServer, leadStoreEnv, startAppServer } from "../support/app-server";
import { type FakeFunction, startFakeFunction } from "../support/fake-function";
import { readLeads } from "../support/leads";
import { runLeadsCli } from "../support/npm";

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * The upgrade (issues 23 and 40): a data folder written by the release before the lead store (the
 * undelivered file and the inbox file, one JSON object per line) is imported by ops with
 * `npm run leads -- import`, never by the server, each file renamed and never deleted; run again it
 * imports nothing twice; pending leads are then delivered by the dispatcher, possibly delivered ones
 * stay held.
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

  it("npm start leaves both files alone and says so; npm run leads -- import imports them once and renames them; the server then delivers what was pending", async () => {
    const dir = mkdtempSync(join(tmpdir(), "upgrade-"));
    writePreviousRelease(dir);
    const env = leadStoreEnv(dir);
    const files = {
      CONTACT_UNDELIVERED_FILE: env.CONTACT_UNDELIVERED_FILE,
      CONTACT_INBOX_FILE: env.CONTACT_INBOX_FILE,
    };
    const importRun = () =>
      runLeadsCli(["import"], { ...env, DATABASE_URL: undefined, SUPABASE_URL: undefined });

    // The server never imports (issue 40): it starts, names the files and the command, and keeps them.
    server = await startAppServer(env);
    expect(server.output()).toContain(
      `CONTACT_UNDELIVERED_FILE (${files.CONTACT_UNDELIVERED_FILE}) and CONTACT_INBOX_FILE (${files.CONTACT_INBOX_FILE}) hold leads of the release before the lead store that are not in it`,
    );
    expect(server.output()).toContain("npm run leads -- import once");
    expect(readLeads(env.LEADS_DATABASE_FILE!)).toEqual([]);
    expect(existsSync(files.CONTACT_INBOX_FILE!)).toBe(true);
    expect(existsSync(files.CONTACT_UNDELIVERED_FILE!)).toBe(true);

    // Ops run the import once, the server still up. A line that cannot be read: exit 1, kept for a person.
    const first = await importRun();
    expect(first.stderr).toBe("");
    expect(first.code).toBe(1);
    expect(first.stdout).toMatch(
      new RegExp(
        `^${escape(files.CONTACT_UNDELIVERED_FILE!)} \\(undelivered requests\\): 2 leads imported into ${escape(env.LEADS_DATABASE_FILE!)}; renamed ${escape(files.CONTACT_UNDELIVERED_FILE!)}\\.imported-\\S+\\.$`,
        "m",
      ),
    );
    expect(first.stdout).toMatch(
      new RegExp(
        `^${escape(files.CONTACT_INBOX_FILE!)} \\(the inbox\\): 2 leads imported into .*; renamed \\S+\\. 1 line could not be read: kept in the renamed file for a person\\.$`,
        "m",
      ),
    );
    const summary = (rows = readLeads(env.LEADS_DATABASE_FILE!)) =>
      rows.map((row) => [row.email, row.state]).sort();
    expect(summary()).toEqual([
      ["held@example.com", "possibly_delivered"],
      ["one@example.com", "inbox"],
      ["pending@example.com", "pending"],
      ["two@example.com", "inbox"],
    ]);
    const files0 = readdirSync(dir).sort();
    expect(files0.some((name) => name.startsWith("contact-requests.jsonl.imported-"))).toBe(true);
    expect(files0.some((name) => name.startsWith("undelivered-contact-requests.jsonl.imported-"))).toBe(true);
    expect(existsSync(files.CONTACT_INBOX_FILE!)).toBe(false);
    expect(existsSync(files.CONTACT_UNDELIVERED_FILE!)).toBe(false);
    // The unreadable line is not lost: it stays in the renamed file.
    const renamedInbox = files0.find((name) => name.startsWith("contact-requests.jsonl.imported-"))!;
    expect(readFileSync(join(dir, renamedInbox), "utf8")).toContain("{not json");
    // Two copies of one request are one lead: the latest copy, as the old `leads retry` sent it.
    const pending = readLeads(env.LEADS_DATABASE_FILE!).find((row) => row.email === "pending@example.com");
    expect(pending).toMatchObject({
      id: "44444444-4444-4444-8444-444444444444",
      source: "import-undelivered",
    });

    // Run again: nothing there. A file of the old release that comes back: nothing imported twice.
    const again = await importRun();
    expect([again.code, again.stdout]).toEqual([
      0,
      `Nothing to import: neither ${files.CONTACT_UNDELIVERED_FILE} nor ${files.CONTACT_INBOX_FILE} is there (imported already, or never written).\n`,
    ]);
    writePreviousRelease(dir);
    const back = await importRun();
    expect(back.stdout).toContain("(undelivered requests): 0 leads imported into");
    expect(back.stdout.match(/, 2 already there; renamed/g)).toHaveLength(2);
    expect(readLeads(env.LEADS_DATABASE_FILE!)).toHaveLength(4);
    await server.stop();

    // With the function configured, the dispatcher delivers the imported pending lead; the held one waits.
    fake = await startFakeFunction();
    server = await startAppServer({
      ...env,
      SUPABASE_URL: fake.url,
      SUPABASE_ANON_KEY: "test-anon-key",
      CONTACT_RETRY_INITIAL_SECONDS: "1",
    });
    expect(server.output()).not.toContain("npm run leads -- import");
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
