import { readFile } from "node:fs/promises";

import cliProgress from "cli-progress";
import { Command, CommanderError, Option } from "commander";

import { createInboxSink } from "~/lib/contact/inbox-sink.server";
import type { ContactSink } from "~/lib/contact/sink.server";
import { CONTACT_FUNCTION, createSupabaseSink } from "~/lib/contact/supabase-sink.server";
import { fileExists, readQueue, withQueueLock } from "~/lib/contact/undelivered-file.server";
import {
  type ParsedQueue,
  pendingEntries,
  type UndeliveredEntry,
  unreadableLines,
} from "~/lib/contact/undelivered-format.server";
import { env } from "~/lib/env.server";

import { type CsvColumn, type CsvOptions, toCsv } from "./csv";
import { CliError } from "./errors";
import { type InboxLine, parseInbox } from "./inbox";
import { type PendingRequest, pendingRequests } from "./plan";
import { type RetryOutcome, type RetryReport, retryPending } from "./retry";
import { type Column, formatTable } from "./table";

/**
 * `npm run leads -- list|retry|export`: what ops need to see and resend the contact requests the
 * function did not confirm (CONTACT_UNDELIVERED_FILE) and to read the inbox file
 * (CONTACT_INBOX_FILE). Same environment as the server. Exit codes: 0 done; 1 something is left
 * for a person or a later retry (requests still pending after a retry, whether they failed again,
 * were held back as possibly delivered or were added meanwhile; or unreadable lines); 2 it could not run.
 */

const out = (text: string) => process.stdout.write(text);
const note = (text: string) => process.stderr.write(`${text}\n`);

type InboxRequest = Extract<InboxLine, { kind: "request" }>;

const time = (iso: string) => iso.replace("T", " ").replace(/\.\d+Z$|Z$/, "");

function reasonText(entry: UndeliveredEntry): string {
  const reason = entry.functionStatus ? `${entry.reason} ${entry.functionStatus}` : entry.reason;
  return entry.possiblyDelivered ? `${reason}, maybe sent` : reason;
}

const undeliveredColumns: Column<UndeliveredEntry>[] = [
  { header: "Failed at (UTC)", maxWidth: 19, value: (entry) => time(entry.failedAt) },
  { header: "Reason", maxWidth: 22, value: reasonText },
  { header: "Name", maxWidth: 24, value: (entry) => entry.request.name },
  { header: "E-mail", maxWidth: 32, value: (entry) => entry.request.email },
  { header: "Company", maxWidth: 20, value: (entry) => entry.request.company },
  { header: "Message", maxWidth: 40, cut: "words", value: (entry) => entry.request.message },
];

const inboxColumns: Column<InboxRequest>[] = [
  { header: "Received at (UTC)", maxWidth: 19, value: (line) => time(line.receivedAt) },
  { header: "Name", maxWidth: 24, value: (line) => line.request.name },
  { header: "E-mail", maxWidth: 32, value: (line) => line.request.email },
  { header: "Company", maxWidth: 20, value: (line) => line.request.company },
  { header: "Message", maxWidth: 48, cut: "words", value: (line) => line.request.message },
];

const requestCsvColumns = <Row>(of: (row: Row) => UndeliveredEntry["request"]): CsvColumn<Row>[] => [
  { header: "name", value: (row) => of(row).name },
  { header: "email", value: (row) => of(row).email },
  { header: "phone", value: (row) => of(row).phone },
  { header: "company", value: (row) => of(row).company },
  { header: "website", value: (row) => of(row).website },
  { header: "companySize", value: (row) => of(row).companySize },
  { header: "industry", value: (row) => of(row).industry },
  { header: "message", value: (row) => of(row).message },
];

const undeliveredCsvColumns: CsvColumn<UndeliveredEntry>[] = [
  { header: "id", value: (entry) => entry.id },
  { header: "failedAt", value: (entry) => entry.failedAt },
  { header: "reason", value: (entry) => entry.reason },
  { header: "functionStatus", value: (entry) => entry.functionStatus },
  { header: "possiblyDelivered", value: (entry) => entry.possiblyDelivered },
  { header: "attempts", value: (entry) => entry.attempts ?? 0 },
  ...requestCsvColumns<UndeliveredEntry>((entry) => entry.request),
];

const inboxCsvColumns: CsvColumn<InboxRequest>[] = [
  { header: "receivedAt", value: (line) => line.receivedAt },
  ...requestCsvColumns<InboxRequest>((line) => line.request),
];

/** Unreadable lines are reported, never dropped; the caller exits 1. */
function reportUnreadable(file: string, lines: { line: number; problem: string }[]): boolean {
  for (const { line, problem } of lines) {
    note(
      `${file}:${line}: unreadable line (${problem}); it stays in the file, untouched: fix or remove it by hand.`,
    );
  }
  return lines.length > 0;
}

async function readText(file: string, what: string): Promise<string | undefined> {
  try {
    return await readFile(file, "utf8");
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === "ENOENT") return undefined;
    throw new CliError(`Cannot read the ${what} ${file}: ${code ?? (error as Error).message}`);
  }
}

async function loadUndelivered(): Promise<{ file: string; queue: ParsedQueue | undefined }> {
  const file = env.CONTACT_UNDELIVERED_FILE;
  try {
    // Under the lock when the file exists, so that a line the server is appending is read whole.
    if (!(await fileExists(file))) return { file, queue: undefined };
    return { file, queue: await withQueueLock(file, () => readQueue(file)) };
  } catch (error) {
    const code = (error as { code?: string }).code;
    throw new CliError(`Cannot read the undelivered file ${file}: ${code ?? (error as Error).message}`);
  }
}

const noUndeliveredFile = (file: string) =>
  `No undelivered requests: ${file} does not exist yet (the server creates it when the function ` +
  `does not confirm a request; CONTACT_UNDELIVERED_FILE sets where).`;

const noInboxFile = (file: string) =>
  `No inbox file yet: ${file} does not exist (the server writes it when SUPABASE_URL is unset; ` +
  `CONTACT_INBOX_FILE sets where).`;

const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;

async function listUndelivered(): Promise<number> {
  const { file, queue } = await loadUndelivered();
  if (!queue) {
    note(noUndeliveredFile(file));
    return 0;
  }
  const pending = pendingEntries(queue);
  if (pending.length === 0) out(`No pending undelivered requests in ${file}.\n`);
  else {
    // Apart, as `retry` treats them: a request any copy of which may have reached the function.
    const maybe = new Set(
      pendingRequests(pending)
        .filter((request) => request.possiblyDelivered)
        .map((request) => request.fingerprint),
    );
    const toRetry = pending.filter((entry) => !maybe.has(entry.fingerprint));
    const possiblyDelivered = pending.filter((entry) => maybe.has(entry.fingerprint));
    out(`${plural(pending.length, "pending undelivered request")} in ${file}.\n`);
    if (toRetry.length > 0) {
      out(`\nTo retry (${toRetry.length}): \`npm run leads -- retry\` sends them.\n\n`);
      out(formatTable(toRetry, undeliveredColumns));
    }
    if (possiblyDelivered.length > 0) {
      out(
        `\nPossibly delivered (${possiblyDelivered.length}): the function timed out or its answer could not ` +
          "be read, so it may have run. Check the agency's mailbox first; `retry` sends these only with " +
          "--include-possibly-delivered.\n\n",
      );
      out(formatTable(possiblyDelivered, undeliveredColumns));
    }
  }
  return reportUnreadable(file, unreadableLines(queue)) ? 1 : 0;
}

async function loadInbox(): Promise<{ file: string; lines: InboxLine[] | undefined }> {
  const file = env.CONTACT_INBOX_FILE;
  const text = await readText(file, "inbox file");
  return { file, lines: text === undefined ? undefined : parseInbox(text) };
}

const inboxRequests = (lines: InboxLine[]) =>
  lines.filter((line): line is InboxRequest => line.kind === "request");
const inboxUnreadable = (lines: InboxLine[]) =>
  lines.flatMap((line) => (line.kind === "unreadable" ? [{ line: line.line, problem: line.problem }] : []));

async function listInbox(): Promise<number> {
  const { file, lines } = await loadInbox();
  if (!lines) {
    note(noInboxFile(file));
    return 0;
  }
  const requests = inboxRequests(lines);
  if (requests.length === 0) out(`No requests in ${file}.\n`);
  else {
    out(`${plural(requests.length, "request")} in ${file}:\n\n`);
    out(formatTable(requests, inboxColumns));
  }
  return reportUnreadable(file, inboxUnreadable(lines)) ? 1 : 0;
}

async function exportCsv(source: "inbox" | "undelivered", options: CsvOptions): Promise<number> {
  if (source === "inbox") {
    const { file, lines } = await loadInbox();
    if (!lines) note(noInboxFile(file));
    out(toCsv(inboxRequests(lines ?? []), inboxCsvColumns, options));
    return reportUnreadable(file, inboxUnreadable(lines ?? [])) ? 1 : 0;
  }
  const { file, queue } = await loadUndelivered();
  if (!queue) note(noUndeliveredFile(file));
  out(toCsv(queue ? pendingEntries(queue) : [], undeliveredCsvColumns, options));
  return reportUnreadable(file, queue ? unreadableLines(queue) : []) ? 1 : 0;
}

function describeOutcome(outcome: RetryOutcome): string {
  switch (outcome.kind) {
    case "delivered":
      return "delivered";
    case "skipped":
      return `skipped: ${outcome.why}`;
    case "failed": {
      const why = `${outcome.reason}${outcome.status ? ` ${outcome.status}` : ""}`;
      return `failed again (${why}${outcome.possiblyDelivered ? ", maybe sent: now held back" : ""})`;
    }
  }
}

const copiesOf = (request: PendingRequest) =>
  request.copies.length > 1 ? ` (${request.copies.length} copies, sent once)` : "";

/** A bar on a terminal; one plain line per request otherwise (CI logs, pipes). */
function progressReporter() {
  if (process.stderr.isTTY) {
    const bar = new cliProgress.SingleBar(
      {
        stream: process.stderr,
        format: "Retrying [{bar}] {value}/{total} | delivered {delivered} | failed {failed}",
        hideCursor: true,
      },
      cliProgress.Presets.shades_classic,
    );
    let delivered = 0;
    let failed = 0;
    return {
      start: (total: number) => bar.start(total, 0, { delivered, failed }),
      progress: (done: number, _total: number, outcome: RetryOutcome) => {
        if (outcome.kind === "delivered") delivered++;
        if (outcome.kind === "failed") failed++;
        bar.update(done, { delivered, failed });
      },
      stop: () => bar.stop(),
    };
  }
  return {
    start: (total: number) => note(`Retrying ${plural(total, "pending request")}…`),
    progress: (done: number, total: number, outcome: RetryOutcome, request: PendingRequest) =>
      note(`[${done}/${total}] ${request.latest.id}${copiesOf(request)}: ${describeOutcome(outcome)}`),
    stop: () => undefined,
  };
}

/**
 * The sink the server is configured with, chosen as the server chooses it
 * (app/lib/contact/contact.server.ts): the function with Supabase, the inbox file without.
 */
function configuredSink(): { sink: ContactSink; target: string } {
  if (env.SUPABASE_URL && env.SUPABASE_ANON_KEY) {
    const sink = createSupabaseSink({
      url: env.SUPABASE_URL,
      anonKey: env.SUPABASE_ANON_KEY,
      timeoutMs: env.CONTACT_FUNCTION_TIMEOUT_MS,
    });
    return { sink, target: `the function ${CONTACT_FUNCTION}` };
  }
  // One line per appendFile, as the server writes it (O_APPEND), so lines never interleave.
  return {
    sink: createInboxSink(env.CONTACT_INBOX_FILE),
    target: `the inbox file ${env.CONTACT_INBOX_FILE}`,
  };
}

/**
 * Without Supabase, requests the function failed to confirm would land in an inbox file that, on
 * a server using Supabase, nobody reads: most likely the CLI runs without the server's environment.
 */
function refuseSupabaseLeadsIntoInbox(send: readonly PendingRequest[]): void {
  const fromFunction = send.filter((request) => request.copies.some((copy) => copy.sink === "supabase"));
  if (fromFunction.length === 0) return;
  throw new CliError(
    `${plural(fromFunction.length, "pending request")} failed at the Supabase function, but no Supabase is ` +
      "configured here (SUPABASE_URL, SUPABASE_ANON_KEY): run `retry` with the server's environment to send " +
      "them to the function. If the server now runs without Supabase, `retry --into-inbox` writes them into " +
      `the inbox file ${env.CONTACT_INBOX_FILE}. Nothing was sent.`,
  );
}

interface RetryCommandOptions {
  includePossiblyDelivered?: boolean;
  intoInbox?: boolean;
}

function summarise(report: RetryReport, file: string, target: string): void {
  if (report.requests === 0) {
    out(`Nothing to retry: no pending request in ${file}.\n`);
    return;
  }
  const copies =
    report.copies > report.requests
      ? ` (${report.copies} copies: a request kept more than once is sent once)`
      : "";
  out(`${plural(report.requests, "pending request")} in ${file}${copies}.\n`);
  if (report.attempted > 0) {
    const included = report.possiblyDeliveredSent
      ? `, ${report.possiblyDeliveredSent} of them possibly delivered already (--include-possibly-delivered)`
      : "";
    out(
      `Sent ${plural(report.attempted, "request")} to ${target}${included}: ${report.delivered} delivered, ` +
        `${report.failed} failed again, ${report.skipped} skipped (delivered meanwhile).\n`,
    );
  }
  if (report.heldBack > 0) {
    out(
      `Not sent: ${plural(report.heldBack, "possibly delivered request")} (the function timed out or its ` +
        "answer could not be read, so it may have run). Check the agency's mailbox; " +
        "`npm run leads -- retry --include-possibly-delivered` sends them anyway.\n",
    );
  }
}

async function retry(options: RetryCommandOptions): Promise<number> {
  const file = env.CONTACT_UNDELIVERED_FILE;
  const { sink, target } = configuredSink();
  const progress = progressReporter();
  let report;
  try {
    report = await retryPending({
      file,
      sink,
      includePossiblyDelivered: Boolean(options.includePossiblyDelivered),
      ...(sink.mode === "inbox-file" && !options.intoInbox ? { check: refuseSupabaseLeadsIntoInbox } : {}),
      onStart: progress.start,
      onProgress: progress.progress,
    });
  } catch (error) {
    if (error instanceof CliError) throw error;
    const code = (error as { code?: string }).code;
    throw new CliError(
      `Retry stopped: ${code ?? (error as Error).message} (${file}). What was delivered is recorded; ` +
        "what was not is still pending.",
    );
  } finally {
    progress.stop();
  }
  if (!report) {
    note(noUndeliveredFile(file));
    return 0;
  }
  summarise(report, file, target);
  if (report.markerErrors) {
    note(
      `${plural(report.markerErrors, "delivery", "deliveries")} could not be marked at once (removed by the rewrite).`,
    );
  }
  if (report.remaining > 0) {
    const meanwhile = report.addedMeanwhile
      ? ` (${report.addedMeanwhile} added by the server meanwhile)`
      : "";
    out(`${plural(report.remaining, "entry", "entries")} still pending in ${file}${meanwhile}.\n`);
  } else out(`None left pending in ${file}.\n`);
  const unreadable = reportUnreadable(file, report.unreadable);
  // 1 whenever something is left for a person or a later retry (README, --help).
  return report.remaining > 0 || unreadable ? 1 : 0;
}

/** The program; each command stores its exit code in `result.code`. */
export function leadsProgram(result: { code: number }): Command {
  const program = new Command("leads")
    .description("See, resend and export the contact requests (leads) the server kept.")
    .exitOverride()
    .showHelpAfterError();

  program
    .command("list")
    .description(
      "Print the pending undelivered requests as tables: those `retry` sends, then those possibly " +
        "delivered already (held back by `retry`). Control and bidi characters show as escapes " +
        "(\\n, \\u202E). With --inbox, the inbox file. Exit 1 if a line is unreadable.",
    )
    .option("--inbox", "list the inbox file instead (requests written when SUPABASE_URL is unset)")
    .action(async (options: { inbox?: boolean }) => {
      result.code = options.inbox ? await listInbox() : await listUndelivered();
    });

  program
    .command("retry")
    .description(
      "Send every pending undelivered request again through the sink the server is configured with: " +
        "the function send-contact-email (SUPABASE_URL and SUPABASE_ANON_KEY set), else the inbox file " +
        "(CONTACT_INBOX_FILE). Copies of one request (same e-mail, any case, and message) are sent once, " +
        "the latest copy; only what fails again stays. Requests marked possibly delivered (a timeout or " +
        "an unreadable answer: the function may have run) are not sent unless --include-possibly-delivered. " +
        "Exit 0 when nothing is left; 1 when something is (failed again, held back as possibly delivered, " +
        "added by the server meanwhile, or an unreadable line); 2 when it could not run.",
    )
    .option(
      "--include-possibly-delivered",
      "send the requests that may have been delivered already too (check the mailbox first)",
    )
    .option(
      "--into-inbox",
      "without Supabase configured, also write requests that failed at the Supabase function into the inbox file",
    )
    .action(async (options: RetryCommandOptions) => {
      result.code = await retry(options);
    });

  program
    .command("export")
    .description(
      "Write the pending undelivered requests (or the inbox) to stdout as CSV (RFC 4180). A value a " +
        "spreadsheet would evaluate (starting with =, +, -, @, tab or CR) gets a single quote in front " +
        "(OWASP's CSV injection guidance): '=HYPERLINK(...) and '+1 757 555 0101 open as text.",
    )
    .addOption(new Option("--csv", "CSV with a header row (the only format)").makeOptionMandatory())
    .addOption(new Option("--inbox", "export the inbox file").conflicts("undelivered"))
    .addOption(new Option("--undelivered", "export the pending undelivered requests (the default)"))
    .addOption(
      new Option(
        "--raw",
        "every value exactly as stored, no quote added (for a program, never for a spreadsheet)",
      ),
    )
    .action(async (options: { inbox?: boolean; raw?: boolean }) => {
      result.code = await exportCsv(options.inbox ? "inbox" : "undelivered", { raw: Boolean(options.raw) });
    });

  return program;
}

export async function main(argv: string[]): Promise<number> {
  const result = { code: 0 };
  try {
    await leadsProgram(result).parseAsync(argv);
    return result.code;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    if (error instanceof CliError) {
      note(`leads: ${error.message}`);
      return error.exitCode;
    }
    note(`leads: ${(error as Error).stack ?? String(error)}`);
    return 2;
  }
}
