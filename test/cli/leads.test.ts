import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

import type { ContactRequest } from "~/lib/contact/schema";
import { readQueue } from "~/lib/contact/undelivered-file.server";
import {
  deliveredMarker,
  pendingEntries,
  serializeLine,
  type UndeliveredEntry,
  undeliveredEntry,
  unreadableLines,
} from "~/lib/contact/undelivered-format.server";

import { cliBundlePath } from "../../scripts/bundle.mjs";
import { type AppServer, startAppServer } from "../support/app-server";
import { root } from "../support/build-output";
import { type FakeFunction, startFakeFunction } from "../support/fake-function";

/**
 * `npm run leads -- list|retry|export`, run as whoever runs the site would run it, against files
 * the server's format and the fake function (issue 13).
 */

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `npm run leads -- …args`; `silent` is `npm run --silent`, the way to get clean stdout (CSV). */
function leads(args: string[], env: Record<string, string | undefined>, silent = false): Promise<Run> {
  const childEnv: Record<string, string | undefined> = {
    ...process.env,
    // Never a real backend from the developer's shell: each test names its own.
    SUPABASE_URL: undefined,
    SUPABASE_ANON_KEY: undefined,
    ...env,
  };
  for (const key of Object.keys(childEnv)) if (childEnv[key] === undefined) delete childEnv[key];
  const npmArgs = ["run", ...(silent ? ["--silent"] : []), "leads", "--", ...args];
  return new Promise((resolve, reject) => {
    const child = spawn("npm", npmArgs, { cwd: root, env: childEnv as NodeJS.ProcessEnv });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

const request = (overrides: Partial<ContactRequest> = {}): ContactRequest => ({
  name: "Mary Jackson",
  email: "mary@example.com",
  phone: "+1 757 555 0101",
  company: 'Hampton "Wind Tunnels", Inc',
  website: "https://example.org",
  companySize: "11-50",
  industry: "Aerospace",
  message: "Please automate our wind tunnel reports,\nthe weekly ones first.",
  ...overrides,
});

const failedEntry = (
  req: ContactRequest,
  failure: { reason: "http" | "timeout" | "network"; status?: number } = { reason: "http", status: 500 },
  at = new Date("2026-02-03T04:05:06.000Z"),
) => undeliveredEntry(req, failure, { sink: "supabase", requestId: "seeded", at });

function dataFiles() {
  const dir = mkdtempSync(join(tmpdir(), "leads-cli-"));
  return { undelivered: join(dir, "data", "undelivered.jsonl"), inbox: join(dir, "data", "inbox.jsonl") };
}

function write(file: string, lines: (UndeliveredEntry | ReturnType<typeof deliveredMarker> | string)[]) {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(
    file,
    lines.map((line) => (typeof line === "string" ? `${line}\n` : serializeLine(line))).join(""),
    { mode: 0o600 },
  );
}

/** What must never reach a terminal from a visitor's value (LF only as the table's own line ends). */
// eslint-disable-next-line no-control-regex
const TERMINAL_CONTROLS = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;

const pendingIn = async (file: string) => pendingEntries((await readQueue(file))!);
const sentBodies = (fake: FakeFunction) => fake.requests.map((received) => received.json as ContactRequest);

beforeAll(() => {
  if (!existsSync(cliBundlePath())) {
    throw new Error(`No leads CLI at ${cliBundlePath()}: run \`npm run build\` (or \`npm test\`) first.`);
  }
});

describe("npm run leads -- list", () => {
  it("says clearly that there is no file yet, and exits 0", async () => {
    const files = dataFiles();
    const run = await leads(["list"], { CONTACT_UNDELIVERED_FILE: files.undelivered });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(`No undelivered requests: ${files.undelivered} does not exist yet`);
  });

  it("prints the pending requests as a table: time, reason, name, e-mail, company, first words", async () => {
    const files = dataFiles();
    const delivered = request({
      name: "Already Delivered",
      email: "done@example.com",
      message: "Sent later.",
    });
    write(files.undelivered, [
      failedEntry(request()),
      failedEntry(delivered),
      failedEntry(request({ name: "Christine Darden", email: "christine@example.com", company: "" }), {
        reason: "timeout",
      }),
      deliveredMarker(delivered, "server", new Date()),
    ]);
    const run = await leads(["list"], { CONTACT_UNDELIVERED_FILE: files.undelivered });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`2 pending undelivered requests in ${files.undelivered}`);
    expect(run.stdout).toMatch(/Failed at \(UTC\)\s+Reason\s+Name\s+E-mail\s+Company\s+Message/);
    // Those `retry` sends, then, apart, those that may have reached the function (a timeout).
    const [toRetry, possiblyDelivered] = run.stdout.split(/\nPossibly delivered \(1\): /);
    expect(toRetry).toContain("To retry (1): `npm run leads -- retry` sends them.");
    expect(toRetry).toContain("Mary Jackson");
    expect(possiblyDelivered).toContain("Christine Darden");
    expect(possiblyDelivered).toContain("--include-possibly-delivered");
    // Long values are cut ("…"), the message after a whole word.
    expect(run.stdout).toMatch(
      /2026-02-03 04:05:06\s+http 500\s+Mary Jackson\s+mary@example\.com\s+Hampton "Wind Tunne…\s+Please automate our wind tunnel…\n/,
    );
    expect(run.stdout).toMatch(/timeout, maybe sent\s+Christine Darden\s+christine@example\.com/);
    expect(run.stdout).not.toContain("Already Delivered");
  });

  it("shows control and bidi characters as escapes, and never cuts an emoji, a flag or an accent in half", async () => {
    const files = dataFiles();
    write(files.undelivered, [
      failedEntry(
        request({
          name: "Ali\r\nBcc: x@evil.example",
          email: "zoe\u0301@example.com",
          company: "🇫🇷".repeat(11),
          message: `x${"👩‍💻".repeat(25)}`,
        }),
      ),
      failedEntry(
        request({
          name: "Eve\u001b[2J\u001b[31m",
          email: "eve@example.com",
          company: "invoice\u202Efdp.exe",
          message: "Hi\u0085there\u2028\u007f\u2066",
        }),
      ),
    ]);
    const run = await leads(["list"], { CONTACT_UNDELIVERED_FILE: files.undelivered });
    expect(run.code).toBe(0);
    // Nothing that acts on a terminal or reorders text reaches it, and nothing is blanked either.
    expect(run.stdout).not.toMatch(TERMINAL_CONTROLS);
    expect(run.stdout).toContain("Ali\\r\\nBcc: x@evil.exam…  ");
    expect(run.stdout).toContain("Eve\\u001B[2J\\u001B[31m");
    expect(run.stdout).toContain("invoice\\u202Efdp.exe  ");
    expect(run.stdout).toContain("Hi\\u0085there\\u2028\\u007F\\u2066\n");
    // Whole clusters only: 9 flags (18 columns) and 19 people at laptops (38), then the ellipsis;
    // the Company column is 20 wide, so one space pads its 19.
    expect(run.stdout).toContain(`zoe\u0301@example.com  ${"🇫🇷".repeat(9)}…   x${"👩‍💻".repeat(19)}…\n`);
  });

  it("reports an unreadable line with its number, keeps it, and exits 1", async () => {
    const files = dataFiles();
    write(files.undelivered, [failedEntry(request()), '{"kind":"undelivered","name":"half a line']);
    const before = readFileSync(files.undelivered, "utf8");
    const run = await leads(["list"], { CONTACT_UNDELIVERED_FILE: files.undelivered });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("Mary Jackson");
    expect(run.stderr).toContain(`${files.undelivered}:2: unreadable line`);
    expect(readFileSync(files.undelivered, "utf8")).toBe(before);
  });

  it("--inbox lists the inbox file (the embedded default's leads)", async () => {
    const files = dataFiles();
    mkdirSync(dirname(files.inbox), { recursive: true });
    writeFileSync(
      files.inbox,
      `${JSON.stringify({ receivedAt: "2026-02-03T10:00:00.000Z", ...request({ name: "Inbox Lead" }) })}\n`,
    );
    const run = await leads(["list", "--inbox"], { CONTACT_INBOX_FILE: files.inbox });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/Received at \(UTC\)\s+Name\s+E-mail\s+Company\s+Message/);
    expect(run.stdout).toMatch(/2026-02-03 10:00:00\s+Inbox Lead\s+mary@example\.com/);

    const none = await leads(["list", "--inbox"], {
      CONTACT_INBOX_FILE: join(dirname(files.inbox), "none.jsonl"),
    });
    expect(none.code).toBe(0);
    expect(none.stderr).toContain("No inbox file yet");
  });
});

describe("npm run --silent leads -- export --csv", () => {
  it("writes the pending requests as RFC 4180 CSV to stdout", async () => {
    const files = dataFiles();
    const entry = failedEntry(request());
    write(files.undelivered, [entry]);
    for (const args of [
      ["export", "--csv"],
      ["export", "--csv", "--undelivered"],
    ]) {
      const run = await leads(args, { CONTACT_UNDELIVERED_FILE: files.undelivered }, true);
      expect(run.code).toBe(0);
      expect(run.stdout).toBe(
        "id,failedAt,reason,functionStatus,possiblyDelivered,attempts,name,email,phone,company,website,companySize,industry,message\r\n" +
          `${entry.id},2026-02-03T04:05:06.000Z,http,500,false,0,Mary Jackson,mary@example.com,'+1 757 555 0101,` +
          '"Hampton ""Wind Tunnels"", Inc",https://example.org,11-50,Aerospace,' +
          '"Please automate our wind tunnel reports,\nthe weekly ones first."\r\n',
      );
    }
  });

  it("--inbox exports the inbox file", async () => {
    const files = dataFiles();
    mkdirSync(dirname(files.inbox), { recursive: true });
    writeFileSync(
      files.inbox,
      `${JSON.stringify({ receivedAt: "2026-02-03T10:00:00.000Z", ...request() })}\n`,
    );
    const run = await leads(["export", "--csv", "--inbox"], { CONTACT_INBOX_FILE: files.inbox }, true);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(
      "receivedAt,name,email,phone,company,website,companySize,industry,message\r\n" +
        '2026-02-03T10:00:00.000Z,Mary Jackson,mary@example.com,\'+1 757 555 0101,"Hampton ""Wind Tunnels"", Inc",' +
        'https://example.org,11-50,Aerospace,"Please automate our wind tunnel reports,\nthe weekly ones first."\r\n',
    );
  });

  it("never emits a cell a spreadsheet would evaluate: formula-looking values get a quote in front", async () => {
    const files = dataFiles();
    const hostile = request({
      name: '=HYPERLINK("http://evil.example","click")',
      company: "+cmd|' /C calc'!A0",
      website: "@SUM(1+1)*cmd|' /C calc'!A0",
      industry: "-2+3",
      message: "\t=1+1",
    });
    const entry = failedEntry(hostile);
    write(files.undelivered, [entry]);
    mkdirSync(dirname(files.inbox), { recursive: true });
    writeFileSync(files.inbox, `${JSON.stringify({ receivedAt: "2026-02-03T10:00:00.000Z", ...hostile })}\n`);
    const cells =
      '"\'=HYPERLINK(""http://evil.example"",""click"")",mary@example.com,\'+1 757 555 0101,' +
      "'+cmd|' /C calc'!A0,'@SUM(1+1)*cmd|' /C calc'!A0,11-50,'-2+3,'\t=1+1\r\n";

    const undelivered = await leads(
      ["export", "--csv"],
      { CONTACT_UNDELIVERED_FILE: files.undelivered },
      true,
    );
    expect(undelivered.code).toBe(0);
    expect(undelivered.stdout.split("\r\n")[1]).toBe(
      `${entry.id},2026-02-03T04:05:06.000Z,http,500,false,0,${cells.replace(/\r\n$/, "")}`,
    );
    const inbox = await leads(["export", "--csv", "--inbox"], { CONTACT_INBOX_FILE: files.inbox }, true);
    expect(inbox.code).toBe(0);
    expect(inbox.stdout).toBe(
      `receivedAt,name,email,phone,company,website,companySize,industry,message\r\n2026-02-03T10:00:00.000Z,${cells}`,
    );
  });

  it("--raw exports every value exactly as stored, and --help says what the quote is for", async () => {
    const files = dataFiles();
    const hostile = request({
      name: '=HYPERLINK("http://evil.example","click")',
      company: "+cmd|' /C calc'!A0",
    });
    write(files.undelivered, [failedEntry(hostile)]);
    const run = await leads(
      ["export", "--csv", "--raw"],
      { CONTACT_UNDELIVERED_FILE: files.undelivered },
      true,
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      '"=HYPERLINK(""http://evil.example"",""click"")",mary@example.com,+1 757 555 0101,+cmd|\' /C calc\'!A0,',
    );
    expect(run.stdout).not.toContain("'=");

    const help = await leads(["export", "--help"], {}, true);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("--raw");
    expect(help.stdout).toMatch(/single\s+quote/);
  });

  it("refuses without --csv or with both sources (exit 2)", async () => {
    const files = dataFiles();
    const noFormat = await leads(["export"], { CONTACT_UNDELIVERED_FILE: files.undelivered }, true);
    expect(noFormat.code).toBe(2);
    expect(noFormat.stderr).toContain("required option '--csv'");
    const both = await leads(["export", "--csv", "--inbox", "--undelivered"], {}, true);
    expect(both.code).toBe(2);
  });
});

describe("npm run leads -- retry", () => {
  let fake: FakeFunction;
  beforeAll(async () => {
    fake = await startFakeFunction();
  });
  afterAll(async () => {
    await fake?.close();
  });
  beforeEach(() => fake.reset());

  const supabase = (extra: Record<string, string> = {}) => ({
    SUPABASE_URL: fake.url,
    SUPABASE_ANON_KEY: "leads-cli-key",
    CONTACT_FUNCTION_TIMEOUT_MS: "2000",
    ...extra,
  });

  it("function up: each pending request is delivered exactly once, the latest of its copies; nothing is left, exit 0", async () => {
    const files = dataFiles();
    const a = request();
    const aAgain = { ...a, email: "MARY@example.com", phone: "+1 757 555 0199" };
    const b = request({ name: "Christine Darden", email: "christine@example.com", message: "Sonic booms." });
    const superseded = request({ name: "Delivered Already", email: "done@example.com", message: "Done." });
    write(files.undelivered, [
      failedEntry(a),
      failedEntry(superseded),
      deliveredMarker(superseded, "server", new Date()),
      failedEntry(b, { reason: "network" }),
      // The same request (same e-mail in any case, same message) failed again: sent once, as last typed.
      failedEntry(aAgain, { reason: "network" }),
    ]);
    const run = await leads(["retry"], { CONTACT_UNDELIVERED_FILE: files.undelivered, ...supabase() });
    expect(run.code).toBe(0);
    expect(sentBodies(fake)).toEqual([aAgain, b]);
    expect(fake.requests[0]?.headers.authorization).toBe("Bearer leads-cli-key");
    expect(run.stdout).toContain(
      `2 pending requests in ${files.undelivered} (3 copies: a request kept more than once is sent once).`,
    );
    expect(run.stdout).toContain(
      "Sent 2 requests to the function send-contact-email: 2 delivered, 0 failed again, 0 skipped",
    );
    expect(run.stdout).toContain(`None left pending in ${files.undelivered}`);
    expect(run.stderr).toMatch(/\[1\/2\] [0-9a-f-]{36} \(2 copies, sent once\): delivered/);
    expect(readFileSync(files.undelivered, "utf8")).toBe("");
    expect(statSync(files.undelivered).mode & 0o777).toBe(0o600);

    const again = await leads(["retry"], { CONTACT_UNDELIVERED_FILE: files.undelivered, ...supabase() });
    expect(again.code).toBe(0);
    expect(again.stdout).toContain("Nothing to retry");
    expect(fake.requests).toHaveLength(2);
  });

  it("function down: nothing is lost, every request stays pending with the attempt noted, exit 1", async () => {
    const files = dataFiles();
    const entries = [failedEntry(request()), failedEntry(request({ email: "grace@example.com" }))];
    write(files.undelivered, entries);
    fake.setMode({ kind: "status", status: 503 });
    const run = await leads(["retry"], { CONTACT_UNDELIVERED_FILE: files.undelivered, ...supabase() });
    expect(run.code).toBe(1);
    expect(fake.requests).toHaveLength(2);
    expect(run.stdout).toContain("0 delivered, 2 failed again");
    expect(run.stdout).toContain(`2 entries still pending in ${files.undelivered}`);
    const pending = await pendingIn(files.undelivered);
    expect(pending).toEqual(
      entries.map((entry) => ({
        ...entry,
        attempts: 1,
        lastAttemptAt: expect.any(String),
        lastReason: "http",
      })),
    );

    // Once the function is back, each is delivered once, and nothing is left.
    fake.reset();
    const back = await leads(["retry"], { CONTACT_UNDELIVERED_FILE: files.undelivered, ...supabase() });
    expect(back.code).toBe(0);
    expect(sentBodies(fake)).toEqual(entries.map((entry) => entry.request));
    expect(await pendingIn(files.undelivered)).toEqual([]);
  });

  it("duplicate copies while the function still fails: one call per request, every copy stays pending, updated", async () => {
    const files = dataFiles();
    const a = request();
    const b = request({ email: "grace@example.com", message: "Another request." });
    const copies = [
      failedEntry(a),
      failedEntry({ ...a, email: "Mary@Example.com" }, { reason: "network" }),
      failedEntry(b),
      failedEntry({ ...a, name: "Mary J." }),
    ];
    write(files.undelivered, copies);
    fake.setMode({ kind: "status", status: 500 });
    const run = await leads(["retry"], { CONTACT_UNDELIVERED_FILE: files.undelivered, ...supabase() });
    expect(run.code).toBe(1);
    expect(sentBodies(fake)).toEqual([{ ...a, name: "Mary J." }, b]);
    expect(run.stdout).toContain(
      "Sent 2 requests to the function send-contact-email: 0 delivered, 2 failed again",
    );
    expect(await pendingIn(files.undelivered)).toEqual(
      copies.map((entry) => ({
        ...entry,
        attempts: 1,
        lastAttemptAt: expect.any(String),
        lastReason: "http",
      })),
    );

    fake.reset();
    const back = await leads(["retry"], { CONTACT_UNDELIVERED_FILE: files.undelivered, ...supabase() });
    expect(back.code).toBe(0);
    expect(sentBodies(fake)).toEqual([{ ...a, name: "Mary J." }, b]);
    expect(readFileSync(files.undelivered, "utf8")).toBe("");
  });

  it("possibly delivered requests are not sent unless --include-possibly-delivered, and the summary says so", async () => {
    const files = dataFiles();
    const maybe = request({ email: "maybe@example.com", message: "The function timed out on this one." });
    const sure = request({ email: "sure@example.com", message: "This one surely failed." });
    const maybeCopies = [
      failedEntry(maybe, { reason: "timeout" }),
      failedEntry(maybe, { reason: "http", status: 500 }),
    ];
    write(files.undelivered, [maybeCopies[0]!, failedEntry(sure), maybeCopies[1]!]);

    const run = await leads(["retry"], { CONTACT_UNDELIVERED_FILE: files.undelivered, ...supabase() });
    expect(run.code).toBe(1);
    expect(sentBodies(fake)).toEqual([sure]);
    expect(run.stdout).toContain("Sent 1 request to the function send-contact-email: 1 delivered");
    expect(run.stdout).toContain("Not sent: 1 possibly delivered request");
    expect(run.stdout).toContain("--include-possibly-delivered");
    expect(run.stdout).toContain(`2 entries still pending in ${files.undelivered}`);
    // Held back untouched: no attempt recorded.
    expect(await pendingIn(files.undelivered)).toEqual(maybeCopies);

    const listed = await leads(["list"], { CONTACT_UNDELIVERED_FILE: files.undelivered });
    expect(listed.code).toBe(0);
    expect(listed.stdout).not.toContain("To retry");
    expect(listed.stdout).toMatch(/Possibly delivered \(2\): [^\n]*\n\nFailed at/);

    const anyway = await leads(["retry", "--include-possibly-delivered"], {
      CONTACT_UNDELIVERED_FILE: files.undelivered,
      ...supabase(),
    });
    expect(anyway.code).toBe(0);
    expect(sentBodies(fake)).toEqual([sure, maybe]);
    expect(anyway.stdout).toContain(
      "Sent 1 request to the function send-contact-email, 1 of them possibly delivered already (--include-possibly-delivered): 1 delivered",
    );
    expect(readFileSync(files.undelivered, "utf8")).toBe("");
  });

  it("uses the server's timeout: a resend that times out fails as a timeout and is held back from then on", async () => {
    const files = dataFiles();
    const entry = failedEntry(request());
    write(files.undelivered, [entry]);
    fake.setMode({ kind: "hang" });
    const run = await leads(["retry"], {
      CONTACT_UNDELIVERED_FILE: files.undelivered,
      ...supabase({ CONTACT_FUNCTION_TIMEOUT_MS: "500" }),
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("failed again (timeout, maybe sent: now held back)");
    expect((await pendingIn(files.undelivered))[0]).toMatchObject({
      attempts: 1,
      lastReason: "timeout",
      possiblyDelivered: true,
    });

    // The function may have run: the next retry leaves it alone.
    fake.reset();
    const next = await leads(["retry"], { CONTACT_UNDELIVERED_FILE: files.undelivered, ...supabase() });
    expect(next.code).toBe(1);
    expect(fake.requests).toHaveLength(0);
    expect(next.stdout).toContain("Not sent: 1 possibly delivered request");
  });

  it("some fail again: only they stay; an unreadable line is reported with its number and kept as it was", async () => {
    const files = dataFiles();
    const ok = request({ message: "This one goes through." });
    const failing = request({ email: "grace@example.com", message: "This one fails again." });
    const broken = '{"kind":"undelivered","id":"cut-short';
    write(files.undelivered, [failedEntry(ok), broken, failedEntry(failing)]);
    fake.setMode({
      kind: "per-request",
      choose: (json) =>
        (json as ContactRequest).message === failing.message
          ? { kind: "status", status: 500 }
          : { kind: "success" },
    });
    const run = await leads(["retry"], { CONTACT_UNDELIVERED_FILE: files.undelivered, ...supabase() });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`${files.undelivered}:2: unreadable line`);
    const queue = (await readQueue(files.undelivered))!;
    expect(pendingEntries(queue).map((entry) => entry.request)).toEqual([failing]);
    expect(unreadableLines(queue).map((line) => line.raw)).toEqual([broken]);
    expect(sentBodies(fake)).toEqual([ok, failing]);
  });

  it("refuses to run twice at the same time (exit 2), so nothing is sent twice", async () => {
    const files = dataFiles();
    write(files.undelivered, [failedEntry(request()), failedEntry(request({ email: "grace@example.com" }))]);
    fake.setMode({ kind: "slow", delayMs: 1_500 });
    const first = leads(["retry"], {
      CONTACT_UNDELIVERED_FILE: files.undelivered,
      ...supabase({ CONTACT_FUNCTION_TIMEOUT_MS: "10000" }),
    });
    const deadline = Date.now() + 20_000;
    while (fake.requests.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
    const second = await leads(["retry"], { CONTACT_UNDELIVERED_FILE: files.undelivered, ...supabase() });
    expect(second.code).toBe(2);
    expect(second.stderr).toContain("Another `npm run leads -- retry` is running");
    expect((await first).code).toBe(0);
    expect(fake.requests).toHaveLength(2);
  });
});

describe("npm run leads -- retry without Supabase (the server's inbox mode)", () => {
  const inboxEntry = (req: ContactRequest) =>
    undeliveredEntry(
      req,
      { reason: "unknown" },
      { sink: "inbox-file", requestId: "seeded", at: new Date("2026-02-03T04:05:06.000Z") },
    );
  const inboxLines = (file: string) =>
    readFileSync(file, "utf8")
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line) as Record<string, string>);

  it("delivers into the inbox file, each request once, after what the server wrote; exit 0", async () => {
    const files = dataFiles();
    const a = request();
    const b = request({ email: "grace@example.com", message: "Inbox was full." });
    write(files.undelivered, [inboxEntry(a), inboxEntry(b), inboxEntry({ ...a, email: "MARY@EXAMPLE.COM" })]);
    mkdirSync(dirname(files.inbox), { recursive: true });
    const serverLine = `${JSON.stringify({ receivedAt: "2026-02-03T03:00:00.000Z", ...request({ name: "Earlier Lead" }) })}\n`;
    writeFileSync(files.inbox, serverLine);

    const run = await leads(["retry"], {
      CONTACT_UNDELIVERED_FILE: files.undelivered,
      CONTACT_INBOX_FILE: files.inbox,
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      `Sent 2 requests to the inbox file ${files.inbox}: 2 delivered, 0 failed again, 0 skipped`,
    );
    expect(readFileSync(files.inbox, "utf8").startsWith(serverLine)).toBe(true);
    const lines = inboxLines(files.inbox);
    expect(lines).toHaveLength(3);
    expect(lines.slice(1).map(({ receivedAt, ...fields }) => [typeof receivedAt, fields])).toEqual([
      ["string", { ...a, email: "MARY@EXAMPLE.COM" }],
      ["string", b],
    ]);
    expect(readFileSync(files.undelivered, "utf8")).toBe("");

    // What ops reads the inbox with shows them.
    const listed = await leads(["list", "--inbox"], { CONTACT_INBOX_FILE: files.inbox });
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain("3 requests in");
    expect(listed.stdout).toContain("grace@example.com");
  });

  it("an inbox that still cannot be written: the requests stay pending with the attempt noted, exit 1", async () => {
    const files = dataFiles();
    const entry = inboxEntry(request());
    write(files.undelivered, [entry]);
    mkdirSync(files.inbox, { recursive: true }); // a directory where the file should be: EISDIR
    const run = await leads(["retry"], {
      CONTACT_UNDELIVERED_FILE: files.undelivered,
      CONTACT_INBOX_FILE: files.inbox,
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("failed again (unknown)");
    expect(await pendingIn(files.undelivered)).toEqual([
      { ...entry, attempts: 1, lastAttemptAt: expect.any(String), lastReason: "unknown" },
    ]);
  });

  it("refuses requests that failed at the Supabase function (exit 2, nothing written) unless --into-inbox", async () => {
    const files = dataFiles();
    const fromFunction = failedEntry(request());
    write(files.undelivered, [inboxEntry(request({ email: "grace@example.com" })), fromFunction]);
    const before = readFileSync(files.undelivered, "utf8");
    const env = { CONTACT_UNDELIVERED_FILE: files.undelivered, CONTACT_INBOX_FILE: files.inbox };

    const refused = await leads(["retry"], env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      "1 pending request failed at the Supabase function, but no Supabase is configured",
    );
    expect(refused.stderr).toContain("--into-inbox");
    expect(readFileSync(files.undelivered, "utf8")).toBe(before);
    expect(existsSync(files.inbox)).toBe(false);

    const moved = await leads(["retry", "--into-inbox"], env);
    expect(moved.code).toBe(0);
    expect(inboxLines(files.inbox).map((line) => line.email)).toEqual([
      "grace@example.com",
      "mary@example.com",
    ]);
    expect(readFileSync(files.undelivered, "utf8")).toBe("");
  });
});

describe("npm run leads -- retry: exit codes, as the README and --help state them", () => {
  let fake: FakeFunction;
  beforeAll(async () => {
    fake = await startFakeFunction();
  });
  afterAll(async () => {
    await fake?.close();
  });
  beforeEach(() => fake.reset());

  const retryWith = (file: string, args: string[] = [], extra: Record<string, string> = {}) =>
    leads(["retry", ...args], {
      CONTACT_UNDELIVERED_FILE: file,
      SUPABASE_URL: fake.url,
      SUPABASE_ANON_KEY: "leads-cli-key",
      CONTACT_FUNCTION_TIMEOUT_MS: "2000",
      ...extra,
    });

  it("0: nothing pending (no file, an empty file, only superseded copies)", async () => {
    const files = dataFiles();
    const noFile = await retryWith(files.undelivered);
    expect(noFile.code).toBe(0);
    expect(noFile.stderr).toContain("does not exist yet");

    write(files.undelivered, []);
    expect((await retryWith(files.undelivered)).code).toBe(0);

    const done = request();
    write(files.undelivered, [failedEntry(done), deliveredMarker(done, "server", new Date())]);
    const superseded = await retryWith(files.undelivered);
    expect(superseded.code).toBe(0);
    expect(superseded.stdout).toContain("Nothing to retry");
    expect(fake.requests).toHaveLength(0);
  });

  it("1: only unreadable lines left, even when everything else was delivered", async () => {
    const files = dataFiles();
    write(files.undelivered, ['{"kind":"undelivered","id":"cut-short']);
    const onlyBroken = await retryWith(files.undelivered);
    expect(onlyBroken.code).toBe(1);
    expect(onlyBroken.stdout).toContain("Nothing to retry");
    expect(onlyBroken.stderr).toContain(`${files.undelivered}:1: unreadable line`);

    write(files.undelivered, [failedEntry(request()), "not json at all"]);
    const rest = await retryWith(files.undelivered);
    expect(rest.code).toBe(1);
    expect(rest.stdout).toContain("1 delivered");
    expect(rest.stdout).toContain(`None left pending in ${files.undelivered}`);
    expect(rest.stderr).toContain(`${files.undelivered}:2: unreadable line`);
    expect(readFileSync(files.undelivered, "utf8")).toBe("not json at all\n");
  });

  it("1: some still failing", async () => {
    const files = dataFiles();
    write(files.undelivered, [failedEntry(request())]);
    fake.setMode({ kind: "status", status: 500 });
    const run = await retryWith(files.undelivered);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("1 failed again");
  });

  it("1: possibly delivered requests held back (0 once they are sent with --include-possibly-delivered)", async () => {
    const files = dataFiles();
    write(files.undelivered, [failedEntry(request(), { reason: "timeout" })]);
    const held = await retryWith(files.undelivered);
    expect(held.code).toBe(1);
    expect(fake.requests).toHaveLength(0);
    expect((await retryWith(files.undelivered, ["--include-possibly-delivered"])).code).toBe(0);
    expect(fake.requests).toHaveLength(1);
  });

  it("2: it could not run (an unreadable file, a malformed environment, an unknown option)", async () => {
    const files = dataFiles();
    mkdirSync(files.undelivered, { recursive: true }); // a directory: EISDIR
    const unreadable = await retryWith(files.undelivered);
    expect(unreadable.code).toBe(2);
    expect(unreadable.stderr).toContain("EISDIR");

    const other = dataFiles();
    write(other.undelivered, [failedEntry(request())]);
    const badEnv = await retryWith(other.undelivered, [], { SUPABASE_URL: "not a url" });
    expect(badEnv.code).toBe(2);
    expect(badEnv.stderr).toContain("SUPABASE_URL");
    const badOption = await retryWith(other.undelivered, ["--everything"]);
    expect(badOption.code).toBe(2);
    expect(fake.requests).toHaveLength(0);
    expect(await pendingIn(other.undelivered)).toHaveLength(1);
  });
});

describe("npm run leads -- retry while the server appends", () => {
  it("loses no line: the server's new failures stay pending, the old ones are delivered once", async () => {
    const files = dataFiles();
    // The server's function is down (its failures are appended); the CLI's is up but slow.
    const serverFunction = await startFakeFunction();
    serverFunction.setMode({ kind: "status", status: 500 });
    const cliFunction = await startFakeFunction();
    cliFunction.setMode({ kind: "slow", delayMs: 150 });
    let server: AppServer | undefined;
    try {
      server = await startAppServer({
        SUPABASE_URL: serverFunction.url,
        SUPABASE_ANON_KEY: "server-key",
        CONTACT_UNDELIVERED_FILE: files.undelivered,
        RATE_LIMIT_GLOBAL_PER_MINUTE: "100000",
        RATE_LIMIT_PER_CLIENT: "100000",
      });
      const seeded = Array.from({ length: 8 }, (_, i) =>
        failedEntry(request({ message: `Seeded request number ${i}.` })),
      );
      write(files.undelivered, seeded);

      let retryDone = false;
      const retry = leads(["retry"], {
        CONTACT_UNDELIVERED_FILE: files.undelivered,
        SUPABASE_URL: cliFunction.url,
        SUPABASE_ANON_KEY: "cli-key",
        CONTACT_FUNCTION_TIMEOUT_MS: "10000",
      }).finally(() => (retryDone = true));

      // Visitors keep submitting (and failing) for as long as the retry runs, and a little after.
      const submitted: string[] = [];
      const visitor = async (id: number) => {
        for (let n = 0; !retryDone || n < 2; n++) {
          const message = `Visitor ${id} submission ${n}, while the retry runs.`;
          const res = await fetch(`${server!.url}/?index`, {
            method: "POST",
            body: new URLSearchParams({ ...request({ message }) }),
          });
          expect(res.status).toBe(502);
          await res.arrayBuffer();
          submitted.push(message);
        }
      };
      await Promise.all([visitor(1), visitor(2), visitor(3)]);
      const run = await retry;

      expect(submitted.length).toBeGreaterThan(6);
      const delivered = sentBodies(cliFunction).map((body) => body.message);
      const queue = (await readQueue(files.undelivered))!;
      const pending = pendingEntries(queue).map((entry) => entry.request.message);
      expect(unreadableLines(queue)).toEqual([]);
      // Every request, seeded or kept by the server meanwhile, is either delivered once or still pending.
      expect([...delivered, ...pending].sort()).toEqual(
        [...seeded.map((entry) => entry.request.message), ...submitted].sort(),
      );
      expect(new Set(delivered).size).toBe(delivered.length);
      expect(delivered).toEqual(expect.arrayContaining(seeded.map((entry) => entry.request.message)));
      // The failures kept after the retry's last read are still there, so something is left: exit 1.
      expect(pending.length).toBeGreaterThan(0);
      expect(run.code).toBe(1);
    } finally {
      await server?.stop();
      await serverFunction.close();
      await cliFunction.close();
    }
  });
});
