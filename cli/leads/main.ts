import { readFile } from "node:fs/promises";

import cliProgress from "cli-progress";
import { Command, CommanderError, Option } from "commander";

import { createSupabaseSink } from "~/lib/contact/supabase-sink.server";
import {
  fileExists,
  type ParsedQueue,
  pendingEntries,
  readQueue,
  type UndeliveredEntry,
  unreadableLines,
  withQueueLock,
} from "~/lib/contact/undelivered-store.server";
import { env } from "~/lib/env.server";

import { type CsvColumn, type CsvOptions, toCsv } from "./csv";
import { CliError } from "./errors";
import { type InboxLine, parseInbox } from "./inbox";
import { retryPending, type RetryOutcome } from "./retry";
import { type Column, formatTable } from "./table";

/**
 * `npm run leads -- list|retry|export`: what ops need to see and resend the contact requests the
 * function did not confirm (CONTACT_UNDELIVERED_FILE) and to read the inbox file
 * (CONTACT_INBOX_FILE). Same environment as the server. Exit codes: 0 done; 1 something is left
 * (requests still pending after a retry, or unreadable lines); 2 it could not run.
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
    out(`${plural(pending.length, "pending undelivered request")} in ${file}:\n\n`);
    out(formatTable(pending, undeliveredColumns));
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
    case "failed":
      return `failed again (${outcome.reason}${outcome.status ? ` ${outcome.status}` : ""})`;
  }
}

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
    progress: (done: number, total: number, outcome: RetryOutcome, entry: UndeliveredEntry) =>
      note(`[${done}/${total}] ${entry.id}: ${describeOutcome(outcome)}`),
    stop: () => undefined,
  };
}

async function retry(): Promise<number> {
  const file = env.CONTACT_UNDELIVERED_FILE;
  if (!env.SUPABASE_URL || !env.SUPABASE_ANON_KEY) {
    throw new CliError(
      "No Supabase configured: `retry` sends the requests to the function send-contact-email, so it " +
        "needs SUPABASE_URL and SUPABASE_ANON_KEY (the same values as the server's).",
    );
  }
  const sink = createSupabaseSink({
    url: env.SUPABASE_URL,
    anonKey: env.SUPABASE_ANON_KEY,
    timeoutMs: env.CONTACT_FUNCTION_TIMEOUT_MS,
  });
  const progress = progressReporter();
  let report;
  try {
    report = await retryPending({ file, sink, onStart: progress.start, onProgress: progress.progress });
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
  if (report.attempted === 0) out(`Nothing to retry: no pending request in ${file}.\n`);
  else {
    out(
      `Retried ${plural(report.attempted, "pending request")}: ${report.delivered} delivered, ` +
        `${report.failed} failed again, ${report.skipped} skipped (already delivered).\n`,
    );
  }
  if (report.markerErrors) {
    note(
      `${plural(report.markerErrors, "delivery", "deliveries")} could not be marked at once (removed by the rewrite).`,
    );
  }
  if (report.remaining > 0) {
    const meanwhile = report.addedMeanwhile
      ? ` (${report.addedMeanwhile} added by the server meanwhile)`
      : "";
    out(`${plural(report.remaining, "request")} still pending in ${file}${meanwhile}.\n`);
  } else out(`None left pending in ${file}.\n`);
  const unreadable = reportUnreadable(file, report.unreadable);
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
    .description("Print the pending undelivered requests as a table (or the inbox file with --inbox).")
    .option("--inbox", "list the inbox file instead (requests written when SUPABASE_URL is unset)")
    .action(async (options: { inbox?: boolean }) => {
      result.code = options.inbox ? await listInbox() : await listUndelivered();
    });

  program
    .command("retry")
    .description(
      "Send every pending undelivered request again to send-contact-email; keep only those that fail again. " +
        "Exit 0 when none is left, 1 when some are.",
    )
    .action(async () => {
      result.code = await retry();
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
