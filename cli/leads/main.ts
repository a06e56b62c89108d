import { Command, CommanderError, Option } from "commander";

import { CONTACT_FUNCTION } from "~/lib/leads/supabase-sink.server";
import { env } from "~/lib/env.server";
import { storeError } from "~/lib/leads/database.server";
import { attemptDelivery } from "~/lib/leads/delivery.server";
import { configuredSink, openLeadStore } from "~/lib/leads/services.server";
import { leadStates, OPEN_STATES } from "~/lib/leads/lead-states";
import type { LeadState, LeadStore } from "~/lib/leads/store.server";

import { leadCsvColumns, type Selection, shown, statusText, wrap } from "./columns";
import { toCsv } from "./csv";
import { describeAttempt, note, plural, progressReporter } from "./progress";
import { formatTable } from "./table";

/**
 * `npm run leads`: ops' commands on the lead store the server's configuration names. Safe while
 * servers run: every change is a transaction, and a lead an instance is sending is never taken.
 * Exit codes: 0 done; 1 something is left for a person or a later retry; 2 it could not run.
 */

/** A failure the CLI explains in one message; it exits 2 (it could not do its job). */
class CliError extends Error {}

const out = (text: string) => process.stdout.write(text);

const terminalWidth = () =>
  process.stdout.isTTY ? process.stdout.columns : Number(process.env.COLUMNS) || 160;

/** A note under the table, in lines that fit the terminal. */
const outNote = (text: string) => out(`\n${wrap(text.split(" "), terminalWidth())}\n`);

/** Runs `work` on the lead store the server's configuration names, and closes it. */
async function withStore<T>(work: (store: LeadStore) => Promise<T>): Promise<T> {
  const { database, store } = openLeadStore(env, () => undefined);
  try {
    const status = await store.start();
    if (status.state !== "ready")
      throw new CliError(`Cannot open the lead store ${database.location}: ${status.reason ?? status.state}`);
    return await work(store);
  } finally {
    await store.close();
  }
}

async function list(store: LeadStore, options: Selection): Promise<number> {
  const { states, one, many, columns } = shown(options);
  const leads = await store.list(states);
  // The store's path is one word, spaces and all, so that it is copied from the terminal whole.
  const heading = leads.length === 0 ? `No ${many} in` : `${plural(leads.length, one, many)} in`;
  const path = `${store.status().location}${leads.length === 0 ? "." : ":"}`;
  out(`${wrap([...heading.split(" "), path], terminalWidth())}\n`);
  if (leads.length === 0) return 0;
  out(`\n${formatTable(leads, columns, terminalWidth())}`);
  const held = leads.filter((lead) => lead.state === "possibly_delivered").length;
  if (held > 0)
    outNote(
      `${plural(held, "lead")} possibly delivered: the function timed out or its answer could not be read, so it ` +
        "may have run. Check the agency's mailbox first: `resolve <id>` marks one that arrived delivered; " +
        "`retry --include-possibly-delivered` sends them again.",
    );
  const spam = leads.filter((lead) => lead.state === "spam").length;
  if (spam > 0)
    outNote(
      `${plural(spam, "lead")} held as spam: never sent. One that a person wrote: \`npm run leads -- release <id or e-mail>\` ` +
        `sends it once. Held spam is erased after ${plural(env.LEADS_SPAM_RETENTION_DAYS, "day")}.`,
    );
  return 0;
}

/** `email` if it is an e-mail address; else what it is not, and how `usage` takes one. */
function emailAddress(email: string, usage: string): string {
  if (email.includes("@")) return email;
  throw new CliError(`"${email}" is not an e-mail address: \`npm run leads -- ${usage}\``);
}

async function exportLeads(
  options: Selection & { raw?: boolean; csv?: boolean; email?: string },
): Promise<number> {
  if (options.email !== undefined) {
    const address = emailAddress(options.email, "export --email person@example.com");
    return withStore((store) => exportPerson(store, address));
  }
  if (!options.csv)
    throw new CliError(
      "Say what to export: `export --csv` (leads as CSV) or `export --email <address>` (a person's leads as JSON).",
    );
  return withStore(async (store) => {
    out(toCsv(await store.list(shown(options).states), leadCsvColumns, options));
    return 0;
  });
}

/**
 * A person's leads as JSON (GDPR art. 15 and 20), matched as `forget` matches; the store's own
 * bookkeeping (leases, tokens, fingerprints) is not theirs.
 */
async function exportPerson(store: LeadStore, email: string): Promise<number> {
  const leads = await store.list(leadStates, email);
  const person = leads.map((lead) => ({
    id: lead.id,
    receivedAt: new Date(lead.receivedAt).toISOString(),
    status: statusText(lead.state),
    ...(lead.deliveredAt ? { deliveredAt: new Date(lead.deliveredAt).toISOString() } : {}),
    ...(lead.state === "spam" ? { spamSignals: lead.spamSignals } : {}),
    request: lead.request,
  }));
  out(
    `${JSON.stringify({ email: email.trim(), exportedAt: new Date().toISOString(), leads: person }, null, 2)}\n`,
  );
  note(`${plural(leads.length, "lead")} of ${email.trim()} exported.`);
  return 0;
}

/** A person found a held lead arrived (in the agency's mailbox): delivered, with no call. */
async function resolve(store: LeadStore, id: string): Promise<number> {
  if (await store.resolve(id)) {
    out(`${id}: marked delivered (no call made).\n`);
    return 0;
  }
  const lead = await store.get(id);
  out(
    lead
      ? `${id} is ${statusText(lead.state)}, not possibly delivered: nothing changed.\n`
      : `No lead ${id} in ${store.status().location}: nothing changed.\n`,
  );
  return 1;
}

async function retry(store: LeadStore, options: { includePossiblyDelivered?: boolean }): Promise<number> {
  const sink = configuredSink(env);
  if (!sink) {
    const open = await store.list(OPEN_STATES);
    if (open.length === 0) {
      out("Nothing to retry: no lead to deliver.\n");
      return 0;
    }
    throw new CliError(
      `${plural(open.length, "lead")} wait for the function, but no Supabase is configured here (SUPABASE_URL, ` +
        "SUPABASE_ANON_KEY): run `retry` with the server's environment. Nothing was sent.",
    );
  }
  const states: LeadState[] = options.includePossiblyDelivered
    ? ["pending", "dead", "possibly_delivered"]
    : ["pending", "dead"];
  const ids = (await store.list(states)).map((lead) => lead.id);
  let delivered = 0;
  let sent = 0;
  if (ids.length > 0) {
    const progress = progressReporter(ids.length);
    try {
      for (const [index, id] of ids.entries()) {
        // Leased just before its own call: a lead waiting its turn holds no lease that could run out.
        const claim = await store.claimIfIn(id, states);
        if (!claim) continue; // taken meanwhile by a server (a visitor's resend, the dispatcher)
        const attempt = await attemptDelivery({ store, sink }, claim, "cli");
        if (attempt.called) sent++;
        if (attempt.sent.ok) delivered++;
        progress.progress(index + 1, claim.lead, attempt);
      }
    } finally {
      progress.stop();
    }
    out(
      `Sent ${plural(sent, "lead")} to the function ${CONTACT_FUNCTION} (each with its own Idempotency-Key): ` +
        `${delivered} delivered, ${sent - delivered} failed again.\n`,
    );
  } else out("Nothing to retry: no pending or dead lead.\n");
  const left = await store.counts();
  const remaining = left.pending + left.dead + left.possiblyDelivered + left.sending;
  if (left.possiblyDelivered > 0 && !options.includePossiblyDelivered)
    out(
      `Not sent: ${plural(left.possiblyDelivered, "possibly delivered lead")} (the function may have run). Check the ` +
        "agency's mailbox; `npm run leads -- retry --include-possibly-delivered` sends them anyway.\n",
    );
  out(remaining > 0 ? `${plural(remaining, "lead")} still to deliver.\n` : "None left to deliver.\n");
  return remaining > 0 ? 1 : 0;
}

async function forget(store: LeadStore, email: string): Promise<number> {
  const { erased, copiesGone } = await store.forget(email);
  // Never "Erased" while a copy is on disk: say what is left, and exit 1.
  out(
    copiesGone
      ? erased > 0
        ? `Erased ${plural(erased, "lead")} of ${email.trim()} (every state).\n`
        : `No lead of ${email.trim()} is in the store (nothing left to erase).\n`
      : `Deleted ${plural(erased, "lead")} of ${email.trim()} from the store, but a copy may remain in its write-ahead ` +
          `log (${store.status().location}-wal) or its free pages: another program is reading the database (a backup, an export). ` +
          "Run this command again once it has finished.\n",
  );
  return copiesGone ? 0 : 1;
}

/** Leads held as spam a person says are real: each sent once under its own key, or to the inbox. */
async function release(store: LeadStore, idOrEmail: string): Promise<number> {
  const sink = configuredSink(env);
  const held = await store.spamMatching(idOrEmail);
  if (held.length === 0) {
    out(`No lead held as spam matches ${idOrEmail.trim()}: nothing released.\n`);
    return 0;
  }
  let left = 0;
  for (const lead of held) {
    const released = await store.releaseSpam(lead.id, sink ? "function" : "inbox");
    switch (released.kind) {
      case "not-spam":
        out(`${lead.id}: no longer held as spam (released meanwhile): not sent again.\n`);
        break;
      case "open-twin":
        left++;
        out(
          `${lead.id}: an identical lead (${released.id}) is still being delivered: this copy stays held as spam.\n`,
        );
        break;
      case "inbox":
        out(`${lead.id}: released to the inbox (no function is configured): npm run leads -- list --inbox\n`);
        break;
      case "claimed": {
        const attempt = await attemptDelivery({ store, sink: sink! }, released.claim, "cli");
        if (!attempt.sent.ok) left++;
        out(
          `${lead.id}: released and sent to the function ${CONTACT_FUNCTION}: ${describeAttempt(attempt)}\n`,
        );
        break;
      }
    }
  }
  return left > 0 ? 1 : 0;
}

/** The program; each command stores its exit code in `result.code`. */
function leadsProgram(result: { code: number }): Command {
  /** An action running `command` on the lead store, which keeps its exit code. */
  const onStore =
    <Args extends unknown[]>(command: (store: LeadStore, ...args: Args) => Promise<number>) =>
    async (...args: Args) => {
      result.code = await withStore((store) => command(store, ...args));
    };
  const program = new Command("leads")
    .description("See, resend, export and erase the leads in the lead store (the server's configuration).")
    .exitOverride()
    .showHelpAfterError();

  program
    .command("list")
    .description(
      "Print the leads still to be delivered (pending, possibly-delivered, dead, sending) with their status, phone " +
        "and company. Control and bidi characters show as escapes (\\n, \\u202E). --inbox: the inbox leads " +
        "(kept when SUPABASE_URL is unset); --spam: the submissions held as spam, with their signals; --all: every lead.",
    )
    .addOption(new Option("--inbox", "the inbox leads instead").conflicts(["all", "spam"]))
    .addOption(new Option("--spam", "the submissions held as spam instead (never sent)").conflicts("all"))
    .addOption(new Option("--all", "every lead, delivered ones and spam included"))
    .action(onStore(list));

  program
    .command("retry")
    .description(
      "Send every pending and dead lead to the function send-contact-email now (SUPABASE_URL and SUPABASE_ANON_KEY " +
        "set), each with its lead id as Idempotency-Key. Leads possibly delivered already (a timeout or an unreadable " +
        "answer: the function may have run) are sent only with --include-possibly-delivered. Exit 0 when nothing " +
        "is left to deliver; 1 when something is; 2 when it could not run.",
    )
    .option(
      "--include-possibly-delivered",
      "send the leads that may have been delivered already too (check the mailbox first)",
    )
    .action(onStore(retry));

  program
    .command("export")
    .description(
      "With --email: that person's leads as JSON. With --csv: the leads still to be delivered (or the inbox, or all) as CSV (RFC 4180). A value a " +
        "spreadsheet would evaluate (starting with =, +, -, @, tab or CR) gets a single quote in front " +
        "(OWASP's CSV injection guidance): '=HYPERLINK(...) and '+1 757 555 0101 open as text.",
    )
    .addOption(new Option("--csv", "CSV with a header row").conflicts("email"))
    .addOption(
      new Option(
        "--email <address>",
        "one person's leads as JSON, every state (their request for access or a copy): nothing of anyone else's",
      ).conflicts(["inbox", "spam", "all", "raw"]),
    )
    .addOption(new Option("--inbox", "export the inbox leads").conflicts(["all", "spam"]))
    .addOption(new Option("--spam", "export the submissions held as spam").conflicts("all"))
    .addOption(new Option("--all", "export every lead"))
    .option("--raw", "every value exactly as stored, no quote added (for a program, never for a spreadsheet)")
    .action(async (options) => {
      result.code = await exportLeads(options);
    });

  program
    .command("resolve")
    .description(
      "Mark a lead held as possibly delivered (npm run leads -- list) delivered, once you found it arrived in the " +
        "agency's mailbox: no call is made, the lead leaves the held count and its alert. Exit 0 when marked; 1 " +
        "when the lead is not held (nothing changed); 2 when it could not run.",
    )
    .argument("<id>", "the lead's id", (id) => id.trim())
    .action(onStore(resolve));

  program
    .command("release")
    .description(
      "Send the submissions held as spam that this lead id or e-mail address names (npm run leads -- list --spam) " +
        "to the function, each once under its own Idempotency-Key; without a function they join the inbox. " +
        "Run again, it releases nothing. Exit 0 when each was delivered (or none matched); 1 when one failed " +
        "(it is then retried like any lead); 2 when it could not run.",
    )
    .argument("<id-or-email>", "a lead id, or the person's e-mail address (any case)")
    .action(onStore(release));

  program
    .command("forget")
    .description(
      "Erase every lead of this e-mail address (any case, any state) from the store, as a person's request to " +
        "erase their data asks (GDPR art. 17), and print how many.",
    )
    .argument("<email>", "the person's e-mail address", (email) =>
      emailAddress(email, "forget person@example.com"),
    )
    .action(onStore(forget));

  return program;
}

export async function main(argv: string[]): Promise<number> {
  const result = { code: 0 };
  try {
    await leadsProgram(result).parseAsync(argv);
    return result.code;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    note(`leads: ${failureText(error)}`);
    return 2;
  }
}

function failureText(error: unknown): string {
  if (error instanceof CliError) return error.message;
  const { errorClass, down } = storeError(error);
  if (!down && errorClass === "timeout")
    return (
      "the lead store stayed busy (another program held its write lock: a backup, a VACUUM, a long " +
      "write), and the command stopped at that step: run it again."
    );
  return (error as Error).stack ?? String(error);
}
