import { Command, CommanderError, Option } from "commander";

import { CONTACT_FUNCTION } from "~/lib/leads/supabase-sink.server";
import { env } from "~/lib/env.server";
import { openDatabase, storeError } from "~/lib/leads/database.server";
import { attemptDelivery } from "~/lib/leads/delivery.server";
import { configuredSink, databaseConfig } from "~/lib/leads/services.server";
import { leadStates, OPEN_STATES } from "~/lib/leads/lead-states";
import { createLeadStore, type LeadState, type LeadStore } from "~/lib/leads/store.server";

import {
  inboxColumns,
  leadColumns,
  leadCsvColumns,
  type Selection,
  spamColumns,
  statesOf,
  statusText,
  wrap,
} from "./columns";
import { type CsvOptions, toCsv } from "./csv";
import { describeAttempt, plural, progressReporter } from "./progress";
import { CliError } from "./errors";
import { formatTable } from "./table";

/**
 * `npm run leads`: ops' commands on the lead store the server's configuration names. Safe while
 * servers run: every change is a transaction, and a lead an instance is sending is never taken.
 * Exit codes: 0 done; 1 something is left for a person or a later retry; 2 it could not run.
 */

const out = (text: string) => process.stdout.write(text);
const note = (text: string) => process.stderr.write(`${text}\n`);

const terminalWidth = () =>
  process.stdout.isTTY ? process.stdout.columns : Number(process.env.COLUMNS) || 160;

async function openStore(): Promise<LeadStore> {
  const database = openDatabase(databaseConfig(env));
  const store = createLeadStore({
    database,
    leaseMs: env.CONTACT_FUNCTION_TIMEOUT_MS + 5_000,
    retry: {
      initialMs: env.CONTACT_RETRY_INITIAL_SECONDS * 1000,
      maxMs: env.CONTACT_RETRY_MAX_SECONDS * 1000,
      maxAttempts: env.CONTACT_RETRY_MAX_ATTEMPTS,
    },
    log: () => undefined,
  });
  const status = await store.start();
  if (status.state !== "ready") {
    await store.close();
    throw new CliError(`Cannot open the lead store ${database.location}: ${status.reason ?? status.state}`);
  }
  return store;
}

async function withStore<T>(work: (store: LeadStore) => Promise<T>): Promise<T> {
  const store = await openStore();
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}

async function list(options: Selection): Promise<number> {
  return withStore(async (store) => {
    const leads = await store.list(statesOf(options));
    const [one, many] = options.inbox
      ? ["inbox lead", "inbox leads"]
      : options.spam
        ? ["lead held as spam", "leads held as spam"]
        : options.all
          ? ["lead", "leads"]
          : ["lead to deliver", "leads to deliver"];
    if (leads.length === 0) {
      out(`No ${many} in ${store.status().location}.\n`);
      return 0;
    }
    out(`${plural(leads.length, one, many)} in ${store.status().location}:\n\n`);
    out(
      formatTable(
        leads,
        options.inbox ? inboxColumns : options.spam ? spamColumns : leadColumns,
        terminalWidth(),
      ),
    );
    const held = leads.filter((lead) => lead.state === "possibly_delivered").length;
    if (held > 0) {
      out(
        `\n${wrap(
          `${plural(held, "lead")} possibly delivered: the function timed out or its answer could not be read, so it ` +
            "may have run. Check the agency's mailbox first: `resolve <id>` marks one that arrived delivered; " +
            "`retry --include-possibly-delivered` sends them again.",
          terminalWidth(),
        )}\n`,
      );
    }
    const spam = leads.filter((lead) => lead.state === "spam").length;
    if (spam > 0) {
      out(
        `\n${wrap(
          `${plural(spam, "lead")} held as spam: never sent. One that a person wrote: \`npm run leads -- release <id or e-mail>\` ` +
            `sends it once. Held spam is erased after ${plural(env.LEADS_SPAM_RETENTION_DAYS, "day")}.`,
          terminalWidth(),
        )}\n`,
      );
    }
    return 0;
  });
}

async function exportCsv(options: Selection & CsvOptions): Promise<number> {
  return withStore(async (store) => {
    const leads = await store.list(statesOf(options));
    out(toCsv(leads, leadCsvColumns, { raw: Boolean(options.raw) }));
    return 0;
  });
}

/**
 * A person's leads as JSON (GDPR art. 15 and 20), matched as `forget` matches; the store's own
 * bookkeeping (leases, tokens, fingerprints) is not theirs.
 */
async function exportPerson(email: string): Promise<number> {
  if (!email.includes("@"))
    throw new CliError(
      `"${email}" is not an e-mail address: \`npm run leads -- export --email person@example.com\``,
    );
  return withStore(async (store) => {
    const leads = await store.list(leadStates, email);
    const person = leads.map((lead) => ({
      id: lead.id,
      receivedAt: new Date(lead.receivedAt).toISOString(),
      status: statusText[lead.state],
      ...(lead.deliveredAt ? { deliveredAt: new Date(lead.deliveredAt).toISOString() } : {}),
      ...(lead.state === "spam" ? { spamSignals: lead.spamSignals } : {}),
      request: lead.request,
    }));
    out(
      `${JSON.stringify({ email: email.trim(), exportedAt: new Date().toISOString(), leads: person }, null, 2)}\n`,
    );
    note(`${plural(leads.length, "lead")} of ${email.trim()} exported.`);
    return 0;
  });
}

/** A person found a held lead arrived (in the agency's mailbox): delivered, with no call. */
async function resolve(id: string): Promise<number> {
  return withStore(async (store) => {
    if (await store.resolve(id)) {
      out(`${id.trim()}: marked delivered (no call made).\n`);
      return 0;
    }
    const lead = await store.get(id.trim());
    out(
      lead
        ? `${id.trim()} is ${statusText[lead.state]}, not possibly delivered: nothing changed.\n`
        : `No lead ${id.trim()} in ${store.status().location}: nothing changed.\n`,
    );
    return 1;
  });
}

async function retry(options: { includePossiblyDelivered?: boolean }): Promise<number> {
  const sink = configuredSink(env);
  return withStore(async (store) => {
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
    const states: LeadState[] = [
      "pending",
      "dead",
      ...(options.includePossiblyDelivered ? (["possibly_delivered"] as const) : []),
    ];
    const ids = (await store.list(states)).map((lead) => lead.id);
    let delivered = 0;
    let sent = 0;
    if (ids.length > 0) {
      const progress = progressReporter(ids.length);
      try {
        let done = 0;
        for (const id of ids) {
          // Leased just before its own call: a lead waiting its turn holds no lease that could run out.
          const claim = await store.claimIfIn(id, states);
          done++;
          if (!claim) continue; // taken meanwhile by a server (a visitor's resend, the dispatcher)
          const attempt = await attemptDelivery({ store, sink }, claim, "cli");
          if (attempt.called) sent++;
          if (attempt.sent.ok) delivered++;
          progress.progress(done, claim.lead, attempt);
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
    if (left.possiblyDelivered > 0 && !options.includePossiblyDelivered) {
      out(
        `Not sent: ${plural(left.possiblyDelivered, "possibly delivered lead")} (the function may have run). Check the ` +
          "agency's mailbox; `npm run leads -- retry --include-possibly-delivered` sends them anyway.\n",
      );
    }
    out(remaining > 0 ? `${plural(remaining, "lead")} still to deliver.\n` : "None left to deliver.\n");
    return remaining > 0 ? 1 : 0;
  });
}

async function forget(email: string): Promise<number> {
  if (!email.includes("@"))
    throw new CliError(`"${email}" is not an e-mail address: \`npm run leads -- forget person@example.com\``);
  return withStore(async (store) => {
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
  });
}

/** Leads held as spam a person says are real: each sent once under its own key, or to the inbox. */
async function release(idOrEmail: string): Promise<number> {
  const sink = configuredSink(env);
  return withStore(async (store) => {
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
          out(
            `${lead.id}: released to the inbox (no function is configured): npm run leads -- list --inbox\n`,
          );
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
  });
}

/** The program; each command stores its exit code in `result.code`. */
export function leadsProgram(result: { code: number }): Command {
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
    .action(async (options: Selection) => {
      result.code = await list(options);
    });

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
    .action(async (options: { includePossiblyDelivered?: boolean }) => {
      result.code = await retry(options);
    });

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
    .addOption(
      new Option(
        "--raw",
        "every value exactly as stored, no quote added (for a program, never for a spreadsheet)",
      ),
    )
    .action(async (options: Selection & { raw?: boolean; csv?: boolean; email?: string }) => {
      if (options.email !== undefined) result.code = await exportPerson(options.email);
      else if (options.csv) result.code = await exportCsv(options);
      else
        throw new CliError(
          "Say what to export: `export --csv` (leads as CSV) or `export --email <address>` (a person's leads as JSON).",
        );
    });

  program
    .command("resolve")
    .description(
      "Mark a lead held as possibly delivered (npm run leads -- list) delivered, once you found it arrived in the " +
        "agency's mailbox: no call is made, the lead leaves the held count and its alert. Exit 0 when marked; 1 " +
        "when the lead is not held (nothing changed); 2 when it could not run.",
    )
    .argument("<id>", "the lead's id")
    .action(async (id: string) => {
      result.code = await resolve(id);
    });

  program
    .command("release")
    .description(
      "Send the submissions held as spam that this lead id or e-mail address names (npm run leads -- list --spam) " +
        "to the function, each once under its own Idempotency-Key; without a function they join the inbox. " +
        "Run again, it releases nothing. Exit 0 when each was delivered (or none matched); 1 when one failed " +
        "(it is then retried like any lead); 2 when it could not run.",
    )
    .argument("<id-or-email>", "a lead id, or the person's e-mail address (any case)")
    .action(async (idOrEmail: string) => {
      result.code = await release(idOrEmail);
    });

  program
    .command("forget")
    .description(
      "Erase every lead of this e-mail address (any case, any state) from the store, as a person's request to " +
        "erase their data asks (GDPR art. 17), and print how many.",
    )
    .argument("<email>", "the person's e-mail address")
    .action(async (email: string) => {
      result.code = await forget(email);
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
    const { errorClass, down } = storeError(error);
    if (!down && errorClass === "timeout") {
      note(
        "leads: the lead store stayed busy (another program held its write lock: a backup, a VACUUM, a long " +
          "write), and the command stopped at that step: run it again.",
      );
      return 2;
    }
    note(`leads: ${(error as Error).stack ?? String(error)}`);
    return 2;
  }
}
