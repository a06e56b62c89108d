import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

import Database from "better-sqlite3";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";

import { CONTACT_FIELDS, type ContactFieldName } from "~/content/contact-fields";
import type { ContactRequest } from "~/lib/contact/schema";
import { type NewLead, type OpenDatabase, openDatabase } from "~/lib/leads/database.server";
import { fingerprintOf } from "~/lib/leads/fingerprint.server";
import { createLeadStore, type Lead, type LeadState, leadStates } from "~/lib/leads/store.server";
import { recordOf } from "~/lib/leads/admit.server";

import { cliBundlePath } from "../../scripts/bundle.mjs";
import { type FakeFunction, startFakeFunction } from "../support/fake-function";
import { type LeadsRun, runLeadsCli } from "../support/npm";
import { filesHolding } from "../support/leads";
import { describeWithPostgres, type PostgresServer, startPostgres } from "../support/postgres";
import { contactRequest } from "../support/contact-request";

/**
 * `npm run leads -- list|retry|export|forget`, run as whoever runs the site would run it, over a
 * lead store seeded through the store's own API (an SQLite file of the test's own, or a database
 * on a throwaway PostgreSQL server), against the fake function on 127.0.0.1.
 */

type Target = { file: string } | { databaseUrl: string };

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "leads-cli-"));
  dirs.push(dir);
  return dir;
}

/** A fresh SQLite lead store, not created yet (the first program to open it migrates it). */
const sqliteTarget = (): { file: string } => ({ file: join(tempDir(), "data", "leads.sqlite") });

function targetEnv(target: Target): Record<string, string | undefined> {
  return "file" in target
    ? { LEADS_DATABASE_FILE: target.file, DATABASE_URL: undefined }
    : // Never the checkout's .data/ even if DATABASE_URL were ignored.
      { DATABASE_URL: target.databaseUrl, LEADS_DATABASE_FILE: join(tempDir(), "unused.sqlite") };
}

function leads(
  args: string[],
  target: Target,
  env: Record<string, string | undefined> = {},
  via?: "npm",
): Promise<LeadsRun> {
  const childEnv: Record<string, string | undefined> = {
    ...process.env,
    // Never a real backend nor a terminal width from the developer's shell: each test names its own.
    SUPABASE_URL: undefined,
    SUPABASE_ANON_KEY: undefined,
    COLUMNS: undefined,
    LINES: undefined,
    ...targetEnv(target),
    ...env,
  };
  return runLeadsCli(args, childEnv, via);
}

const request = (overrides: Partial<ContactRequest> = {}): ContactRequest =>
  contactRequest({
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

const csvCells = (cells: Partial<Record<ContactFieldName, string>>) =>
  CONTACT_FIELDS.map(({ name }) => cells[name] ?? "").join(",");

/** `request()`'s values as their CSV cells (the phone quoted for a spreadsheet, quotes doubled). */
const MARY_CELLS = {
  name: "Mary Jackson",
  email: "mary@example.com",
  phone: "'+1 757 555 0101",
  company: '"Hampton ""Wind Tunnels"", Inc"',
  website: "https://example.org",
  companySize: "11-50",
  industry: "Aerospace",
};

const LIST_HEADERS: Partial<Record<ContactFieldName, string>> = {
  name: "Name",
  email: "E-mail",
  message: "Message",
};
const fieldHeaders = CONTACT_FIELDS.map(({ name, label }) => LIST_HEADERS[name] ?? label);
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

interface Seed {
  state: LeadState;
  request?: Partial<ContactRequest>;
  attempts?: number;
  lastReason?: string;
  lastStatus?: number;
  spamSignals?: string[];
}

/** 2026-02-03 04:05:06 UTC, and each seeded lead a minute after the one before. */
const T0 = Date.UTC(2026, 1, 3, 4, 5, 6);

function rowOf(seed: Seed, index: number): NewLead {
  const lead = request(seed.request);
  const receivedAt = T0 + index * 60_000;
  const sending = seed.state === "sending";
  return {
    id: randomUUID(),
    fingerprint: fingerprintOf(lead),
    state: seed.state,
    receivedAt: receivedAt,
    ...recordOf(lead),
    requestId: null,
    source: "form",
    attempts: seed.attempts ?? (seed.state === "inbox" || seed.state === "spam" ? 0 : 1),
    nextAttemptAt: seed.state === "pending" ? receivedAt + 30_000 : null,
    callStartedAt: sending ? receivedAt : null,
    // A lead a server is sending right now: leased for an hour more.
    leaseUntil: sending ? Date.now() + 3_600_000 : null,
    leaseToken: sending ? randomUUID() : null,
    lastAttemptAt: seed.state === "inbox" || seed.state === "spam" ? null : receivedAt,
    lastReason: seed.lastReason ?? null,
    lastStatus: seed.lastStatus ?? null,
    deliveredAt: seed.state === "delivered" ? receivedAt + 1_000 : null,
    erasedAt: null,
    spamSignals: seed.spamSignals?.join(",") ?? null,
  };
}

/** The lead store of `target`, opened (and migrated) as the server opens it. */
async function withStore<T>(
  target: Target,
  work: (store: ReturnType<typeof createLeadStore>, database: OpenDatabase) => Promise<T>,
) {
  const database = openDatabase({
    databaseUrl: "databaseUrl" in target ? target.databaseUrl : undefined,
    file: "file" in target ? target.file : "",
  });
  const store = createLeadStore({
    database,
    leaseMs: 15_000,
    retry: { initialMs: 30_000, maxMs: 3_600_000, maxAttempts: 20 },
    log: () => undefined,
  });
  const status = await store.start();
  try {
    if (status.state !== "ready") throw new Error(`test store not ready: ${status.reason}`);
    return await work(store, database);
  } finally {
    await store.close();
  }
}

async function seed(target: Target, seeds: Seed[]): Promise<NewLead[]> {
  const rows = seeds.map(rowOf);
  // Rows in any state, as they are: straight into the table the store has just migrated.
  await withStore(target, (_store, { db }) => db.insertInto("leads").values(rows).execute());
  return rows;
}

/** Every lead in the store, oldest first. */
const leadsIn = (target: Target): Promise<Lead[]> => withStore(target, (store) => store.list(leadStates));
const byId = (all: Lead[], id: string | undefined) => all.find((lead) => lead.id === id);

/** What must never reach a terminal from a visitor's value (LF only as the output's own line ends). */
// eslint-disable-next-line no-control-regex
const TERMINAL_CONTROLS = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;

/** Terminal columns of each line: one per grapheme cluster, two for an emoji, a flag or a CJK character. */
const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });
const WIDE =
  /\p{Emoji_Presentation}|\p{Regional_Indicator}|[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\uff00-\uff60]/u;
const lineWidths = (text: string) =>
  text
    .replace(/\n$/, "")
    .split("\n")
    .map((line) =>
      [...segmenter.segment(line)].reduce((sum, { segment }) => sum + (WIDE.test(segment) ? 2 : 1), 0),
    );

const sentBodies = (fake: FakeFunction) => fake.requests.map((received) => received.json as ContactRequest);
const sentKeys = (fake: FakeFunction) => fake.requests.map((received) => received.headers["idempotency-key"]);

const everyState: Seed[] = [
  { state: "pending", lastReason: "http", lastStatus: 500 },
  {
    state: "dead",
    request: {
      name: "Christine Darden",
      email: "christine@example.com",
      phone: "+1 757 555 0102",
      company: "NASA Langley Research Center",
      message: "Sonic boom minimisation for our supersonic research, please.",
    },
    attempts: 20,
    lastReason: "http",
    lastStatus: 503,
  },
  {
    state: "possibly_delivered",
    request: {
      name: "Katherine Johnson",
      email: "katherine@example.com",
      phone: "",
      company: "",
      message: "Trajectories.",
    },
    lastReason: "timeout",
  },
  {
    state: "sending",
    request: {
      name: "Dorothy Vaughan",
      email: "dorothy@example.com",
      phone: "",
      company: "IBM",
      message: "Fortran.",
    },
  },
  { state: "delivered", request: { name: "Already Delivered", email: "done@example.com", message: "Sent." } },
  { state: "inbox", request: { name: "Inbox Lead", email: "inbox@example.com", message: "Kept for you." } },
];

/** Submissions held as spam (issue 41): a trap a password manager filled, and link spam. */
const spamSeeds: Seed[] = [
  {
    state: "spam",
    request: { name: "Trapped Person", email: "Trapped@Example.com", message: "A real question, held." },
    spamSignals: ["honeypot"],
  },
  {
    state: "spam",
    request: {
      name: "Link Seller",
      email: "seller@example.net",
      message: "Cheap links http://a.example http://b.example http://c.example",
    },
    spamSignals: ["links", "markup"],
  },
];

beforeAll(() => {
  if (!existsSync(cliBundlePath())) {
    throw new Error(`No leads CLI at ${cliBundlePath()}: run \`npm run build\` (or \`npm test\`) first.`);
  }
});

/** The read-only commands share one store: a Node started per run is what this file costs. */
describe("npm run leads -- list and export, over one store of every state", { timeout: 120_000 }, () => {
  const target = sqliteTarget();
  let rows: NewLead[];
  beforeAll(async () => {
    rows = await seed(target, [
      ...everyState,
      { state: "inbox", request: { name: "Second Inbox", email: "two@example.com", message: "Two." } },
      ...spamSeeds,
    ]);
  });
  const statusesAsWritten = () => rows.map((row) => row.state.replace("_", "-"));
  const HEADER = `id,status,receivedAt,attempts,lastReason,functionStatus,deliveredAt,${CONTACT_FIELDS.map(({ name }) => name).join(",")}\r\n`;

  it("list prints how many leads wait, in words, and each with its status, tries, last error and every field of the form", async () => {
    // Wide enough for every column at its widest.
    const run = await leads(["list"], target, { COLUMNS: "300" });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`^4 leads to deliver in ${target.file}:\n\nStatus `));
    expect(run.stdout).toMatch(
      new RegExp(
        `\nStatus\\s+Received \\(UTC\\)\\s+Tries\\s+Last error\\s+${fieldHeaders.map(escapeRegExp).join("\\s+")}\n`,
      ),
    );
    // Long values are cut ("…"), the message after a whole word.
    expect(run.stdout).toMatch(
      /\npending\s+2026-02-03 04:05\s+1\s+http 500\s+Mary Jackson\s+mary@example\.com\s+\+1 757 555 0101\s+Hampton "Wind Tunne…\s+[^\n]*?Please automate our wind tunnel…\n/,
    );
    expect(run.stdout).toMatch(
      /\ndead\s+2026-02-03 04:06\s+20\s+http 503\s+Christine Darden\s+christine@example\.com\s+\+1 757 555 0102\s+NASA Langley Resear…\s+[^\n]*?Sonic boom minimisation for our supersonic…\n/,
    );
    expect(run.stdout).toMatch(
      /\npossibly-delivered\s+2026-02-03 04:07\s+1\s+timeout\s+Katherine Johnson\s+katherine@/,
    );
    expect(run.stdout).toMatch(
      /\nsending\s+2026-02-03 04:08\s+1\s+Dorothy Vaughan\s+dorothy@example\.com\s+IBM\s+[^\n]*?Fortran\.\n/,
    );
    // Nothing to deliver in delivered, inbox or spam leads.
    for (const name of ["Already Delivered", "Inbox Lead", "Trapped Person"])
      expect(run.stdout).not.toContain(name);
    expect(run.stdout).toContain("1 lead possibly delivered");
    const note = run.stdout.replace(/\n/g, " ");
    expect(note).toContain("`resolve <id>` marks one that arrived delivered");
    expect(note).toContain("`retry --include-possibly-delivered` sends them again");
    for (const width of lineWidths(run.stdout)) expect(width).toBeLessThanOrEqual(300);
  });

  it("list --inbox lists the inbox leads (kept without a function), without status columns", async () => {
    const run = await leads(["list", "--inbox"], target);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`2 inbox leads in ${target.file}:`);
    expect(run.stdout).toMatch(/\nReceived \(UTC\)\s+Name\s+E-mail\s+Phone\s+Company\s+(?:\S.*\s)?Message\n/);
    expect(run.stdout).toMatch(
      /\n2026-02-03 04:10\s+Inbox Lead\s+inbox@example\.com\s+\+1 757 555 0101\s+Hampton/,
    );
    expect(run.stdout).toContain("Second Inbox");
    expect(run.stdout).not.toContain("Status");
    expect(run.stdout).not.toContain("Mary Jackson");
  });

  it("list --all lists every lead, delivered, inbox and spam ones included, each with its status", async () => {
    const run = await leads(["list", "--all"], target, { COLUMNS: "200" });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`9 leads in ${target.file}:`);
    const listed = run.stdout
      .split("\n")
      .map((line) => /^(pending|dead|possibly-delivered|sending|delivered|inbox|spam) /.exec(line)?.[1])
      .filter(Boolean);
    expect(listed).toEqual(statusesAsWritten());
    expect(run.stdout).toMatch(/\ndelivered\s+2026-02-03 04:09\s+1\s+Already Delivered/);
  });

  it("list --spam shows what is held as spam with its signals and how to release it; with --all it is refused (exit 2)", async () => {
    const spam = await leads(["list", "--spam"], target, { COLUMNS: "200" });
    expect(spam.code, spam.stderr).toBe(0);
    expect(spam.stdout).toContain("2 leads held as spam in ");
    expect(spam.stdout).toMatch(/\nspam\s+2026-02-03 04:12\s+honeypot\s+Trapped Person/);
    expect(spam.stdout).toMatch(/links, markup\s+Link Seller/);
    expect(spam.stdout).toContain("npm run leads -- release <id or e-mail>");
    expect(spam.stdout).toContain("erased after 30 days");
    expect(spam.stdout).not.toContain("Mary Jackson");
    const both = await leads(["list", "--spam", "--all"], target);
    expect(both.code).toBe(2);
    expect(both.stdout).toBe("");
  });

  it("export --csv writes the leads to deliver as RFC 4180 CSV to stdout, phone numbers readable in a spreadsheet", async () => {
    const run = await leads(["export", "--csv"], target);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(
      HEADER +
        `${rows[0]!.id},pending,2026-02-03T04:05:06.000Z,1,http,500,,` +
        csvCells({
          ...MARY_CELLS,
          message: '"Please automate our wind tunnel reports,\nthe weekly ones first."',
        }) +
        `\r\n${rows[1]!.id},dead,2026-02-03T04:06:06.000Z,20,http,503,,` +
        csvCells({
          ...MARY_CELLS,
          name: "Christine Darden",
          email: "christine@example.com",
          phone: "'+1 757 555 0102",
          company: "NASA Langley Research Center",
          message: '"Sonic boom minimisation for our supersonic research, please."',
        }) +
        `\r\n${rows[2]!.id},possibly-delivered,2026-02-03T04:07:06.000Z,1,timeout,,,` +
        csvCells({
          ...MARY_CELLS,
          name: "Katherine Johnson",
          email: "katherine@example.com",
          phone: "",
          company: "",
          message: "Trajectories.",
        }) +
        `\r\n${rows[3]!.id},sending,2026-02-03T04:08:06.000Z,1,,,,` +
        csvCells({
          ...MARY_CELLS,
          name: "Dorothy Vaughan",
          email: "dorothy@example.com",
          phone: "",
          company: "IBM",
          message: "Fortran.",
        }) +
        "\r\n",
    );
  });

  it("export --csv --inbox exports the inbox leads; --all every lead, spam with its signals", async () => {
    const inbox = await leads(["export", "--csv", "--inbox"], target);
    expect(inbox.code).toBe(0);
    expect(inbox.stdout).toBe(
      HEADER +
        `${rows[5]!.id},inbox,2026-02-03T04:10:06.000Z,0,,,,` +
        csvCells({
          ...MARY_CELLS,
          name: "Inbox Lead",
          email: "inbox@example.com",
          message: "Kept for you.",
        }) +
        `\r\n${rows[6]!.id},inbox,2026-02-03T04:11:06.000Z,0,,,,` +
        csvCells({ ...MARY_CELLS, name: "Second Inbox", email: "two@example.com", message: "Two." }) +
        "\r\n",
    );
    const all = await leads(["export", "--csv", "--all"], target);
    expect(all.code).toBe(0);
    const records = all.stdout.split("\r\n").filter((record) => /^[0-9a-f-]{36},/.test(record));
    expect(records.map((record) => record.split(",")[0])).toEqual(rows.map((row) => row.id));
    expect(records.map((record) => record.split(",")[1])).toEqual(statusesAsWritten());
    // A delivered lead says when; a spam one why it is held.
    expect(records[4]).toContain(
      ",delivered,2026-02-03T04:09:06.000Z,1,,,2026-02-03T04:09:07.000Z,Already Delivered,",
    );
    expect(records[8]).toContain(",spam,2026-02-03T04:13:06.000Z,0,links markup,,,Link Seller,");
  });

  it("export refuses without --csv or --email, or with both --inbox and --all (exit 2), writing nothing to stdout", async () => {
    const noFormat = await leads(["export"], target);
    expect(noFormat.code).toBe(2);
    expect(noFormat.stderr).toContain("Say what to export: `export --csv`");
    expect(noFormat.stdout).toBe("");
    const both = await leads(["export", "--csv", "--inbox", "--all"], target);
    expect(both.code).toBe(2);
    expect(both.stdout).toBe("");
  });

  it("retry refuses without SUPABASE_URL while leads wait (exit 2, nothing sent, nothing changed)", async () => {
    const before = await leadsIn(target);
    const refused = await leads(["retry"], target);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("4 leads wait for the function, but no Supabase is configured here");
    expect(refused.stderr).toContain("Nothing was sent.");
    expect(await leadsIn(target)).toEqual(before);
  });
});

describe("npm run leads -- list on any terminal", { timeout: 120_000 }, () => {
  it("fits COLUMNS=200, 120, 100 and 80 (not a terminal): no line longer, the e-mail and phone never cut, the possibly-delivered note too", async () => {
    // A store path of 70 characters with a space: at 80 columns its headings take two lines, the path one.
    const dir = tempDir();
    const target = { file: join(dir, `my ${"d".repeat(53 - dir.length)}`, "leads.sqlite") };
    await seed(target, [
      everyState[0]!,
      everyState[1]!,
      // The status column at its widest, and the note under the table.
      everyState[2]!,
      everyState[3]!,
      {
        state: "pending",
        request: {
          name: "漢字 Kanji Name",
          email: "grace.22461@example.com",
          phone: "+1 513 555 0199",
          message: "👩‍💻 ".repeat(40),
        },
      },
    ]);
    const runs = new Map<number, LeadsRun>();
    for (const columns of [200, 120, 100, 80])
      runs.set(columns, await leads(["list"], target, { COLUMNS: String(columns) }));
    for (const [columns, run] of runs) {
      expect(run.code).toBe(0);
      expect(Math.max(...lineWidths(run.stdout)), `COLUMNS=${columns}`).toBeLessThanOrEqual(columns);
      expect(run.stdout, `COLUMNS=${columns}`).toContain("1 lead possibly delivered");
      expect(run.stdout, `COLUMNS=${columns}`).toContain(`${target.file}:\n`);
      // How to reach each person, whole, at every width (issue 33).
      for (const whole of [
        "mary@example.com",
        "christine@example.com",
        "grace.22461@example.com",
        "+1 757 555 0101",
        "+1 513 555 0199",
      ])
        expect(run.stdout, `COLUMNS=${columns}`).toContain(whole);
    }
    // A wide terminal: the table, one row per lead, the message giving way before anything else.
    for (const columns of [200]) {
      const lines = runs.get(columns)!.stdout.split("\n");
      const header = lines.find((line) => line.startsWith("Status"));
      expect(header).toMatch(
        /^Status\s+Received \(UTC\)\s+Tries\s+(?:Last error|La\S*)\s+Name\s+E-mail\s+Phone\s+Com\S*\s+(?:\S.*\s)?Message$/,
      );
      expect(lines.filter((line) => /^(pending|dead|possibly-delivered|sending) /.test(line))).toHaveLength(
        5,
      );
    }
    expect(runs.get(200)!.stdout).toMatch(
      /\npending\s+2026-02-03 04:05\s+1\s+[^\n]*?Mary J[^\n]*?mary@example\.com/,
    );
    expect(runs.get(100)!.stdout).toContain("possibly-delivered");
    // Where even the narrowest table cannot hold every field: one record per lead, field by field.
    for (const columns of [120, 80]) {
      const records = runs.get(columns)!.stdout;
      expect(records).toContain("-[ RECORD 5 ]");
      expect(records).toMatch(/\nE-mail\s+\| grace\.22461@example\.com\n/);
      expect(records).toMatch(/\nPhone\s+\| \+1 513 555 0199\n/);
    }
    const none = (await leads(["list", "--inbox"], target, { COLUMNS: "80" })).stdout;
    expect(none).toBe(`No inbox leads in\n${target.file}.\n`);
  });

  it("shows control and bidi characters as escapes, and never cuts an emoji, a flag or an accent in half", async () => {
    const target = sqliteTarget();
    await seed(target, [
      {
        state: "pending",
        request: {
          name: "Ali\r\nBcc: x@evil.example",
          email: "zoe\u0301@example.com",
          phone: "",
          company: "🇫🇷".repeat(11),
          message: `x${"👩‍💻".repeat(25)}`,
        },
      },
      {
        state: "dead",
        request: {
          name: "Eve\u001b[2J\u001b[31m",
          email: "eve@example.com",
          phone: "\u202e1010 555 757",
          company: "invoice\u202Efdp.exe",
          message: "Hi\u0085there\u2028\u007f\u2066",
        },
      },
    ]);
    // Wide enough for every column at its widest, so that only the escapes are read here.
    const run = await leads(["list"], target, { COLUMNS: "300" });
    expect(run.code).toBe(0);
    // Nothing that acts on a terminal or reorders text reaches it, and nothing is blanked either.
    expect(run.stdout).not.toMatch(TERMINAL_CONTROLS);
    expect(run.stdout).toContain("Ali\\r\\nBcc: x@evil.exam…  ");
    expect(run.stdout).toContain("Eve\\u001B[2J\\u001B[31m");
    expect(run.stdout).toContain("\\u202E1010 555 757");
    expect(run.stdout).toContain("invoice\\u202Efdp.exe  ");
    expect(run.stdout).toContain("Hi\\u0085there\\u2028\\u007F\\u2066\n");
    // Whole clusters only: 9 flags (18 columns) and "…" in the 20-column Company column; the x,
    // 23 people at laptops (46) and "…" in the 48-column Message column.
    expect(run.stdout).toMatch(new RegExp(`  ${"🇫🇷".repeat(9)}…\\s+[^\\n]*?x${"👩‍💻".repeat(23)}…\n`, "u"));
    expect(run.stdout).toContain("zoe\u0301@example.com");
  });
});

describe("npm run --silent leads -- export --csv into a spreadsheet", { timeout: 120_000 }, () => {
  it("never emits a cell a spreadsheet would evaluate: formula-looking values get a quote in front; --raw keeps them", async () => {
    const target = sqliteTarget();
    const hostile = {
      name: '=HYPERLINK("http://evil.example","click")',
      company: "+cmd|' /C calc'!A0",
      website: "@SUM(1+1)*cmd|' /C calc'!A0",
      industry: "-2+3",
      message: "\t=1+1",
    };
    const [row] = await seed(target, [{ state: "pending", request: hostile }]);
    // As a shell user types it into a file: npm's --silent keeps its own lines out of the CSV.
    const run = await leads(["export", "--csv"], target, {}, "npm");
    expect(run.code).toBe(0);
    expect(run.stdout.split("\r\n")[1]).toBe(
      `${row!.id},pending,2026-02-03T04:05:06.000Z,1,,,,` +
        csvCells({
          ...MARY_CELLS,
          name: '"\'=HYPERLINK(""http://evil.example"",""click"")"',
          company: "'+cmd|' /C calc'!A0",
          website: "'@SUM(1+1)*cmd|' /C calc'!A0",
          industry: "'-2+3",
          message: "'\t=1+1",
        }),
    );

    const raw = await leads(["export", "--csv", "--raw"], target);
    expect(raw.code).toBe(0);
    expect(raw.stdout.split("\r\n")[1]).toBe(
      `${row!.id},pending,2026-02-03T04:05:06.000Z,1,,,,` +
        csvCells({
          ...MARY_CELLS,
          name: '"=HYPERLINK(""http://evil.example"",""click"")"',
          phone: "+1 757 555 0101",
          company: "+cmd|' /C calc'!A0",
          website: "@SUM(1+1)*cmd|' /C calc'!A0",
          industry: "-2+3",
          message: "\t=1+1",
        }),
    );
    expect(raw.stdout).not.toContain("'=");

    const help = await leads(["export", "--help"], target);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("--raw");
    expect(help.stdout).toMatch(/single\s+quote/);
  });
});

/** A fake function for the describe it is called in, reset before each test. */
function fakeFunctionForEach(): () => FakeFunction {
  let fake: FakeFunction | undefined;
  beforeAll(async () => {
    fake = await startFakeFunction();
  });
  afterAll(async () => {
    await fake?.close();
  });
  beforeEach(() => fake!.reset());
  return () => fake!;
}

describe("npm run leads -- retry", { timeout: 120_000 }, () => {
  const fake = fakeFunctionForEach();
  const supabase = (extra: Record<string, string> = {}) => ({
    SUPABASE_URL: fake().url,
    SUPABASE_ANON_KEY: "leads-cli-key",
    CONTACT_FUNCTION_TIMEOUT_MS: "2000",
    ...extra,
  });

  it("sends each pending and dead lead once, its id as Idempotency-Key; holds possibly delivered and sending ones (exit 1)", async () => {
    const target = sqliteTarget();
    const rows = await seed(target, everyState);
    const [pending, dead, possibly, sending, delivered, inbox] = rows;
    const run = await leads(["retry"], target, supabase());
    expect(run.code).toBe(1);
    expect(sentKeys(fake())).toEqual([pending!.id, dead!.id]);
    expect(sentBodies(fake())).toEqual([request(everyState[0]!.request), request(everyState[1]!.request)]);
    expect(fake().requests[0]?.headers.authorization).toBe("Bearer leads-cli-key");
    expect(run.stdout).toContain(
      "Sent 2 leads to the function send-contact-email (each with its own Idempotency-Key): 2 delivered, 0 failed again.",
    );
    expect(run.stdout).toContain("Not sent: 1 possibly delivered lead");
    expect(run.stdout).toContain("--include-possibly-delivered");
    expect(run.stdout).toContain("2 leads still to deliver.");
    expect(run.stderr).toContain(`[1/2] ${pending!.id}: delivered`);

    const after = await leadsIn(target);
    expect(byId(after, pending!.id)).toMatchObject({ state: "delivered", attempts: 2 });
    expect(byId(after, dead!.id)).toMatchObject({ state: "delivered", attempts: 21 });
    expect(byId(after, possibly!.id)).toMatchObject({ state: "possibly_delivered", attempts: 1 });
    expect(byId(after, sending!.id)).toMatchObject({ state: "sending", attempts: 1 });
    expect(byId(after, delivered!.id)).toMatchObject({ state: "delivered", attempts: 1 });
    expect(byId(after, inbox!.id)).toMatchObject({ state: "inbox", attempts: 0 });

    // Asked to, it sends the possibly delivered one too (same key); the one a server is sending stays.
    const anyway = await leads(["retry", "--include-possibly-delivered"], target, supabase());
    expect(anyway.code).toBe(1);
    expect(sentKeys(fake())).toEqual([pending!.id, dead!.id, possibly!.id]);
    expect(anyway.stdout).toContain("1 lead still to deliver.");
    expect(byId(await leadsIn(target), possibly!.id)).toMatchObject({ state: "delivered", attempts: 2 });
  });

  it("function down: nothing is lost, each stays pending (or dead) with the attempt counted, exit 1; back up, the same keys, exit 0; again, nothing to retry", async () => {
    const target = sqliteTarget();
    const [pending, dead] = await seed(target, [
      everyState[0]!,
      everyState[1]!,
      everyState[4]!,
      everyState[5]!,
    ]);
    fake().setMode({ kind: "status", status: 500 });
    const run = await leads(["retry"], target, supabase());
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("0 delivered, 2 failed again");
    expect(run.stderr).toContain(`${pending!.id}: failed (http 500): now pending`);
    expect(run.stderr).toContain(`${dead!.id}: failed (http 500): now dead`);
    const after = await leadsIn(target);
    expect(byId(after, pending!.id)).toMatchObject({
      state: "pending",
      attempts: 2,
      lastReason: "http",
      lastStatus: 500,
    });
    expect(byId(after, pending!.id)?.nextAttemptAt).toEqual(expect.any(Number));
    expect(byId(after, dead!.id)).toMatchObject({ state: "dead", attempts: 21, lastStatus: 500 });

    fake().reset();
    const back = await leads(["retry"], target, supabase());
    expect(back.code).toBe(0);
    expect(back.stdout).toContain("2 delivered, 0 failed again");
    expect(back.stdout).toContain("None left to deliver.");
    expect(sentKeys(fake())).toEqual([pending!.id, dead!.id]);
    expect((await leadsIn(target)).map((lead) => lead.state)).toEqual([
      "delivered",
      "delivered",
      "delivered",
      "inbox",
    ]);

    const again = await leads(["retry"], target, supabase());
    expect(again.code).toBe(0);
    expect(again.stdout).toContain("Nothing to retry: no pending or dead lead.");
    expect(fake().requests).toHaveLength(2);
  });

  it("uses the server's timeout: a resend that times out is held as possibly delivered from then on (exit 1)", async () => {
    const target = sqliteTarget();
    const [pending] = await seed(target, [everyState[0]!]);
    fake().setMode({ kind: "hang" });
    const run = await leads(["retry"], target, supabase({ CONTACT_FUNCTION_TIMEOUT_MS: "500" }));
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`${pending!.id}: failed (timeout): now possibly-delivered`);
    expect(await leadsIn(target)).toEqual([
      expect.objectContaining({ state: "possibly_delivered", attempts: 2 }),
    ]);

    fake().reset();
    const next = await leads(["retry"], target, supabase());
    expect(next.code).toBe(1);
    expect(fake().requests).toHaveLength(0);
    expect(next.stdout).toContain("Not sent: 1 possibly delivered lead");
  });

  it("2: it could not run (a malformed environment, an unknown option, a store that cannot open): nothing sent", async () => {
    const target = sqliteTarget();
    await seed(target, [everyState[0]!]);
    const env = { SUPABASE_URL: fake().url, SUPABASE_ANON_KEY: "leads-cli-key" };
    const badEnv = await leads(["retry"], target, { ...env, SUPABASE_URL: "not a url" });
    expect(badEnv.code).toBe(2);
    expect(badEnv.stderr).toContain("SUPABASE_URL");
    const badOption = await leads(["retry", "--everything"], target, env);
    expect(badOption.code).toBe(2);
    const blocked = join(target.file, "leads.sqlite"); // under a regular file: cannot be opened
    const noStore = await leads(["retry"], { file: blocked }, env);
    expect(noStore.code).toBe(2);
    expect(noStore.stderr).toContain(`Cannot open the lead store ${blocked}`);
    expect(fake().requests).toHaveLength(0);
    expect(await leadsIn(target)).toEqual([expect.objectContaining({ state: "pending", attempts: 1 })]);
  });
});

describe("npm run leads -- release", { timeout: 120_000 }, () => {
  const fake = fakeFunctionForEach();
  const supabase = () => ({ SUPABASE_URL: fake().url, SUPABASE_ANON_KEY: "leads-cli-key" });

  it("release <e-mail> sends each held lead of that address once under its own key; run again (or at once twice) nothing more is sent", async () => {
    const target = sqliteTarget();
    const [trapped, seller] = await seed(target, spamSeeds);
    const runs = await Promise.all([
      leads(["release", "trapped@example.COM"], target, supabase()),
      leads(["release", "trapped@example.COM"], target, supabase()),
    ]);
    for (const run of runs) expect(run.code, run.stderr).toBe(0);
    expect(sentKeys(fake())).toEqual([trapped!.id]);
    expect(sentBodies(fake())).toEqual([request(spamSeeds[0]!.request)]);
    expect(runs.map((run) => run.stdout).join("")).toContain(
      `${trapped!.id}: released and sent to the function send-contact-email: delivered`,
    );
    const again = await leads(["release", trapped!.id], target, supabase());
    expect(again.code).toBe(0);
    expect(again.stdout).toBe(`No lead held as spam matches ${trapped!.id}: nothing released.\n`);
    expect(fake().requests).toHaveLength(1);
    const after = await leadsIn(target);
    expect(byId(after, trapped!.id)).toMatchObject({ state: "delivered", attempts: 1 });
    expect(byId(after, seller!.id)).toMatchObject({ state: "spam", attempts: 0 });
  });

  it("release by id with the function down: the lead is pending (retried under the same key), exit 1; without a function it joins the inbox", async () => {
    const target = sqliteTarget();
    const [trapped, seller] = await seed(target, spamSeeds);
    fake().setMode({ kind: "status", status: 503 });
    const down = await leads(["release", seller!.id], target, supabase());
    expect(down.code).toBe(1);
    expect(byId(await leadsIn(target), seller!.id)).toMatchObject({ state: "pending", attempts: 1 });
    expect(sentKeys(fake())).toEqual([seller!.id]);
    const inbox = await leads(["release", trapped!.id], target);
    expect(inbox.code, inbox.stderr).toBe(0);
    expect(inbox.stdout).toContain("released to the inbox");
    expect(byId(await leadsIn(target), trapped!.id)).toMatchObject({ state: "inbox" });
    expect(fake().requests).toHaveLength(1);
  });
});

describe("npm run leads -- forget and export --email", { timeout: 120_000 }, () => {
  it("erases every lead of that address, in any case and any state, prints the count, and keeps everyone else's", async () => {
    const target = sqliteTarget();
    const mary = (state: LeadState, email: string, message: string): Seed => ({
      state,
      request: { email, message },
    });
    const rows = await seed(target, [
      mary("pending", "mary@example.com", "One."),
      mary("delivered", "MARY@Example.com", "Two."),
      mary("inbox", "Mary@example.com", "Three."),
      mary("possibly_delivered", "mary@example.com", "Four."),
      { state: "pending", request: { name: "Grace", email: "grace@example.com", message: "Keep me." } },
      {
        state: "pending",
        request: { name: "Not Mary", email: "annemary@example.com", message: "Keep me too." },
      },
    ]);
    const run = await leads(["forget", " Mary@EXAMPLE.com "], target);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("Erased 4 leads of Mary@EXAMPLE.com (every state).\n");
    expect((await leadsIn(target)).map((lead) => lead.id)).toEqual([rows[4]!.id, rows[5]!.id]);

    const again = await leads(["forget", "mary@example.com"], target);
    expect(again.code).toBe(0);
    expect(again.stdout).toBe("No lead of mary@example.com is in the store (nothing left to erase).\n");

    const notAnAddress = await leads(["forget", "mary"], target);
    expect(notAnAddress.code).toBe(2);
    expect(notAnAddress.stderr).toContain('"mary" is not an e-mail address');
    expect(await leadsIn(target)).toHaveLength(2);
  });

  it("export --email gives that person's leads as JSON, every state, and nothing of anyone else's", async () => {
    const target = sqliteTarget();
    await seed(target, [
      { state: "pending", request: { email: "mary@example.com", message: "One." } },
      { state: "delivered", request: { email: "MARY@Example.com", message: "Two." } },
      { state: "spam", request: { email: "Mary@example.com", message: "Three." } },
      { state: "pending", request: { name: "Grace", email: "grace@example.com", message: "Not hers." } },
    ]);
    const run = await leads(["export", "--email", " Mary@EXAMPLE.com "], target);
    expect(run.code, run.stderr).toBe(0);
    const exported = JSON.parse(run.stdout) as {
      email: string;
      leads: { status: string; request: { email: string; message: string } }[];
    };
    expect(exported.email).toBe("Mary@EXAMPLE.com");
    expect(exported.leads.map((lead) => [lead.status, lead.request?.email, lead.request.message])).toEqual([
      ["pending", "mary@example.com", "One."],
      ["delivered", "MARY@Example.com", "Two."],
      ["spam", "Mary@example.com", "Three."],
    ]);
    expect(run.stdout).not.toMatch(/grace|Not hers/i);
    expect(run.stderr).toContain("3 leads of Mary@EXAMPLE.com exported.");
    const nobody = await leads(["export", "--email", "nobody@example.com"], target);
    expect(nobody.code).toBe(0);
    expect((JSON.parse(nobody.stdout) as { leads: unknown[] }).leads).toEqual([]);
  });

  it("erases an address with non-ASCII letters as typed, in any case, composed (NFC) or decomposed (NFD)", async () => {
    const target = sqliteTarget();
    const composed = "\u00c9lodie@example.com"; // É as one character
    const decomposed = "E\u0301lodie@example.com"; // E and a combining acute accent
    await seed(target, [
      { state: "pending", request: { name: "Élodie", email: composed, message: "Bonjour." } },
      { state: "inbox", request: { name: "Élodie", email: decomposed, message: "Encore." } },
      { state: "delivered", request: { name: "Élodie", email: "élodie@example.com", message: "Merci." } },
      { state: "pending", request: { name: "Elodie", email: "elodie@example.com", message: "Pas moi." } },
    ]);
    const run = await leads(["forget", decomposed.toUpperCase()], target);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`Erased 3 leads of ${decomposed.toUpperCase()} (every state).\n`);
    expect((await leadsIn(target)).map((lead) => lead.request?.email)).toEqual(["elodie@example.com"]);
  });
});

describe("the SQLite store's migrations (issue 33)", { timeout: 120_000 }, () => {
  it("a new file opened by several programs at once is migrated once, and each of them says in words that none wait", async () => {
    const target = sqliteTarget();
    const runs = await Promise.all(
      [["list"], ["list", "--inbox"], ["retry"]].map((args) => leads(args, target)),
    );
    for (const run of runs) expect(run.code, run.stderr).toBe(0);
    expect(runs.map((run) => run.stdout)).toEqual([
      `No leads to deliver in ${target.file}.\n`,
      `No inbox leads in ${target.file}.\n`,
      "Nothing to retry: no lead to deliver.\n",
    ]);
    const db = new Database(target.file, { readonly: true });
    const names = db.prepare("select name from kysely_migration order by name").pluck().all();
    db.close();
    expect(names).toEqual([
      "001-leads",
      "002-email-key-nfc",
      "003-call-started",
      "004-spam",
      "005-lead-record",
    ]);
  });

  it("an address stored by an earlier release under its decomposed key is found by forget after the upgrade", async () => {
    const target = sqliteTarget();
    const decomposed = "E\u0301lodie@example.com";
    await seed(target, [
      { state: "pending", request: { name: "Élodie", email: decomposed, message: "Bonjour." } },
    ]);
    // As stored before migration 002: lower-cased but not composed, and 002 onwards not yet run.
    const db = new Database(target.file);
    db.prepare("update leads set email_key = ?").run(decomposed.toLowerCase());
    // Each value in a column of its own, as before 005.
    for (const column of "name email phone company website company_size industry message".split(" ")) {
      db.prepare(`alter table leads add column ${column} text not null default ''`).run();
      db.prepare(
        `update leads set ${column} = json_extract(request, '$.${column.replace("_s", "S")}')`,
      ).run();
    }
    db.prepare("alter table leads drop column request").run();
    db.prepare("alter table leads drop column call_started_at").run();
    db.prepare("drop index leads_state_received").run();
    db.prepare("alter table leads drop column spam_signals").run();
    db.prepare(
      "delete from kysely_migration where name in ('002-email-key-nfc', '003-call-started', '004-spam', '005-lead-record')",
    ).run();
    db.close();
    const run = await leads(["forget", "\u00e9lodie@example.com"], target);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe("Erased 1 lead of \u00e9lodie@example.com (every state).\n");
  });
});

describe(
  "npm run leads -- forget leaves the address in no file of the SQLite store's folder",
  { timeout: 120_000 },
  () => {
    it("no byte of the erased leads is left in the database or its write-ahead log", async () => {
      const target = sqliteTarget();
      const others = Array.from({ length: 40 }, (_, index) => ({
        state: "pending" as const,
        request: { name: `Other ${index}`, email: `other${index}@example.com`, message: `Keep ${index}.` },
      }));
      await seed(target, [
        ...others.slice(0, 20),
        { state: "pending", request: { email: "forget.me@example.com", message: "Secret one." } },
        { state: "delivered", request: { email: "FORGET.ME@example.com", message: "Secret two." } },
        ...others.slice(20),
      ]);
      const dir = dirname(target.file);
      expect(filesHolding(dir, "forget.me@example.com").length).toBeGreaterThan(0);

      const run = await leads(["forget", "forget.me@example.com"], target);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain("Erased 2 leads of forget.me@example.com (every state).\n");
      expect(filesHolding(dir, "forget.me@example.com")).toEqual([]);
      expect(filesHolding(dir, "Secret one.")).toEqual([]);
      expect(await leadsIn(target)).toHaveLength(40);
    });
  },
);

describe(
  "npm run leads -- forget while another program reads the SQLite store (issue 40)",
  { timeout: 120_000 },
  () => {
    it("never says Erased while the address is still in the write-ahead log: exit 1 and what to do; once the reader ends, Erased and no byte left", async () => {
      const target = sqliteTarget();
      await seed(target, [
        { state: "delivered", request: { email: "long.reader@example.com", message: "Held by a reader." } },
        { state: "pending", request: { email: "someone.else@example.com", message: "Stays." } },
      ]);
      // A backup or an export: a read transaction on an older snapshot, open for the whole run.
      const reader = new Database(target.file, { readonly: true });
      reader.exec("begin");
      expect(reader.prepare("select count(*) from leads").pluck().get()).toBe(2);
      try {
        const held = await leads(["forget", "long.reader@example.com"], target);
        expect(held.code, held.stderr).toBe(1);
        expect(held.stdout).not.toContain("Erased");
        expect(held.stdout).toContain(
          "Deleted 1 lead of long.reader@example.com from the store, but a copy may remain",
        );
        expect(held.stdout).toContain("Run this command again once it has finished.");
      } finally {
        reader.exec("rollback");
        reader.close();
      }
      const done = await leads(["forget", "long.reader@example.com"], target);
      expect(done.code, done.stderr).toBe(0);
      expect(done.stdout).toBe(
        "No lead of long.reader@example.com is in the store (nothing left to erase).\n",
      );
      expect(filesHolding(dirname(target.file), "long.reader@example.com")).toEqual([]);
    });
  },
);

describe("npm run leads while another connection writes the SQLite store", { timeout: 120_000 }, () => {
  let writer: Database.Database | undefined;
  afterEach(() => {
    if (writer?.inTransaction) writer.exec("rollback");
    writer?.close();
    writer = undefined;
  });

  /** Another program's connection (the server's, say), as any SQLite client opens the file. */
  function openWriter(file: string) {
    const db = new Database(file);
    db.pragma("busy_timeout = 10000");
    const insert = db.prepare(
      `insert into leads (id, fingerprint, state, received_at, request, email_key, source, attempts)
       values (@id, @fingerprint, 'inbox', @at, json_object('name', @name, 'email', @email, 'phone', '', 'company', '',
         'website', '', 'companySize', '', 'industry', '', 'message', @message), @email, 'form', 0)`,
    );
    let count = 0;
    const add = (name: string) => {
      const message = `Written meanwhile, number ${++count}.`;
      const email = `writer${count}@example.com`;
      insert.run({
        id: randomUUID(),
        fingerprint: fingerprintOf({ email, message }),
        at: Date.now(),
        name,
        email,
        message,
      });
    };
    return { db, add, count: () => count };
  }

  it("list reads while a write transaction is open (it sees what was committed, exit 0)", async () => {
    const target = sqliteTarget();
    await seed(target, [everyState[0]!]);
    const other = openWriter(target.file);
    writer = other.db;
    other.db.exec("begin immediate");
    other.add("Uncommitted Lead");
    const run = await leads(["list", "--all"], target);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("1 lead in");
    expect(run.stdout).toContain("Mary Jackson");
    expect(run.stdout).not.toContain("Uncommitted Lead");
    other.db.exec("commit");
    const later = await leads(["list", "--inbox"], target);
    expect(later.stdout).toContain("Uncommitted Lead");
  });

  it("retry and forget write while another connection keeps writing: both succeed, nothing of the other's is lost", async () => {
    const target = sqliteTarget();
    const fake = await startFakeFunction();
    try {
      const rows = await seed(target, [
        everyState[0]!,
        everyState[1]!,
        { state: "pending", request: { name: "Forget Me", email: "forget@example.com", message: "Bye." } },
      ]);
      const other = openWriter(target.file);
      writer = other.db;
      // A short write transaction every few milliseconds, for as long as the CLI runs.
      const timer = setInterval(() => other.add("Concurrent Lead"), 5);
      let retry: LeadsRun;
      let forget: LeadsRun;
      try {
        [retry, forget] = await Promise.all([
          leads(["retry"], target, { SUPABASE_URL: fake.url, SUPABASE_ANON_KEY: "leads-cli-key" }),
          leads(["forget", "forget@example.com"], target),
        ]);
      } finally {
        clearInterval(timer);
      }
      expect(other.count()).toBeGreaterThan(0);
      expect(forget.stderr).toBe("");
      expect(forget.code).toBe(0);
      expect(forget.stdout).toBe("Erased 1 lead of forget@example.com (every state).\n");
      expect(retry.code).toBe(0);
      // The forgotten lead may or may not have been claimed before it was erased; the others were sent once each.
      const keys = sentKeys(fake);
      expect(keys.slice(0, 2)).toEqual([rows[0]!.id, rows[1]!.id]);
      expect(new Set(keys).size).toBe(keys.length);
      const after = await leadsIn(target);
      expect(after.filter((lead) => lead.state === "inbox")).toHaveLength(other.count());
      expect(after.filter((lead) => lead.state === "delivered").map((lead) => lead.id)).toEqual([
        rows[0]!.id,
        rows[1]!.id,
      ]);
      expect(after.some((lead) => lead.request?.email === "forget@example.com")).toBe(false);
    } finally {
      await fake.close();
    }
  });
  it("a delivery the store could not record is reported as delivered but unrecorded, never as plainly delivered", async () => {
    const target = sqliteTarget();
    const [pending] = await seed(target, [everyState[0]!]);
    const fake = await startFakeFunction();
    const other = openWriter(target.file);
    writer = other.db;
    // While the function answers, another program takes the file's write lock and keeps it past
    // the CLI's busy timeout: the outcome cannot be recorded.
    fake.setMode({
      kind: "per-request",
      choose: () => {
        other.db.exec("begin immediate");
        return { kind: "success" };
      },
    });
    try {
      const run = await leads(["retry"], target, {
        SUPABASE_URL: fake.url,
        SUPABASE_ANON_KEY: "leads-cli-key",
        // The store's wait for the lock, and the lease the outcome is said again within: short here.
        CONTACT_FUNCTION_TIMEOUT_MS: "1000",
      });
      expect(sentKeys(fake)).toEqual([pending!.id]);
      expect(run.stderr).toContain(
        `${pending!.id}: delivered by the function, but the store could not record it: it will show as possibly delivered`,
      );
      expect(run.stderr).not.toMatch(new RegExp(`${pending!.id}: delivered\\n`));
      expect(run.code).not.toBe(0);
    } finally {
      other.db.exec("rollback");
      await fake.close();
    }
    // Its call began on the record: the lease's expiry will hold it, never send it again.
    expect(byId(await leadsIn(target), pending!.id)).toMatchObject({ state: "sending" });
  });
});

describe("npm run leads -- retry while a server runs on the same store", { timeout: 180_000 }, () => {
  it("a lead the CLI has not sent yet is never declared possibly delivered by the server's lease expiry", async () => {
    const target = sqliteTarget();
    const rows = await seed(
      target,
      Array.from({ length: 40 }, (_, i) => ({
        state: "pending" as const,
        request: { email: `lead${i}@example.com`, message: `Waiting lead number ${i}.` },
      })),
    );
    const fake = await startFakeFunction();
    // Every call fails for sure (HTTP 500) after 0.25 s: the 40 take at least 10 s, more than one lease
    // (2 s timeout + 5 s margin). The timeout is far above the delay so that a loaded machine never
    // turns a sure failure into a timeout.
    fake.setMode({ kind: "status", status: 500, delayMs: 250 });
    // What every running server's dispatcher does on each pass: expire the leases that ran out.
    const server = createLeadStore({
      database: openDatabase({ file: target.file }),
      leaseMs: 7_000,
      retry: { initialMs: 30_000, maxMs: 3_600_000, maxAttempts: 20 },
      log: () => undefined,
    });
    await server.start();
    const expired: string[] = [];
    const dispatcher = setInterval(() => {
      void server.expireLeases().then(
        ({ held, returned }) => expired.push(...held, ...returned),
        () => undefined,
      );
    }, 100);
    let run: LeadsRun;
    try {
      run = await leads(["retry"], target, {
        SUPABASE_URL: fake.url,
        SUPABASE_ANON_KEY: "leads-cli-key",
        CONTACT_FUNCTION_TIMEOUT_MS: "2000",
      });
    } finally {
      clearInterval(dispatcher);
      await server.close();
      await fake.close();
    }
    expect(run.code).toBe(1);
    expect(sentKeys(fake)).toEqual(rows.map((row) => row.id));
    expect(run.stdout).toContain("0 delivered, 40 failed again");
    // Each failed for sure: pending, to be tried again; none held for a person as if it might have arrived.
    const after = await leadsIn(target);
    expect(
      after.filter((lead) => lead.state !== "pending").map((lead) => `${lead.state} ${lead.lastReason}`),
    ).toEqual([]);
    expect(expired).toEqual([]);
  });
});

/**
 * Each behaviour above is the store's, held on both engines by test/lib/leads/store-contract.ts;
 * here, only that every command reaches PostgreSQL and that the password is never printed.
 */
describeWithPostgres("npm run leads over PostgreSQL (DATABASE_URL)", () => {
  let postgres: PostgresServer;
  let fake: FakeFunction;
  beforeAll(async () => {
    postgres = await startPostgres();
    fake = await startFakeFunction();
  });
  afterAll(async () => {
    await fake?.close();
    await postgres?.destroy();
  });

  it(
    "list, retry, forget and release work on it; the password is never printed (the server trusts loopback here, so any password connects)",
    { timeout: 120_000 },
    async () => {
      const url = new URL(await postgres.createDatabase());
      url.password = "s3cret-Passw0rd";
      const target: Target = { databaseUrl: url.toString() };
      const [pending, dead, possibly, , , , trapped] = await seed(target, [...everyState, ...spamSeeds]);
      const supabase = { SUPABASE_URL: fake.url, SUPABASE_ANON_KEY: "leads-cli-key" };

      const list = await leads(["list"], target, { COLUMNS: "200" });
      expect(list.code).toBe(0);
      expect(list.stdout).toContain(
        `4 leads to deliver in postgres://postgres:***@127.0.0.1:${url.port}${url.pathname}:`,
      );
      expect(list.stdout).toMatch(
        /\npending\s+2026-02-03 04:05\s+1\s+http 500\s+Mary Jackson\s+mary@example\.com\s+\+1 757 555 0101\s+Hampton "Wind Tunne…/,
      );
      const retry = await leads(["retry"], target, supabase);
      expect(retry.code).toBe(1);
      expect(sentKeys(fake)).toEqual([pending!.id, dead!.id]);
      const forget = await leads(["forget", "KATHERINE@example.com"], target);
      expect(forget.code).toBe(0);
      expect(forget.stdout).toBe("Erased 1 lead of KATHERINE@example.com (every state).\n");
      const release = await leads(["release", "trapped@example.com"], target, supabase);
      expect(release.code, release.stderr).toBe(0);
      expect(sentKeys(fake)).toEqual([pending!.id, dead!.id, trapped!.id]);
      for (const run of [list, retry, forget, release])
        expect(run.stdout + run.stderr).not.toContain("s3cret-Passw0rd");

      const after = await leadsIn(target);
      expect(byId(after, possibly!.id)).toBeUndefined();
      expect(after.map((lead) => lead.state)).toEqual([
        "delivered",
        "delivered",
        "sending",
        "delivered",
        "inbox",
        "delivered",
        "spam",
      ]);
    },
  );
});
