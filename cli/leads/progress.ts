import cliProgress from "cli-progress";

import type { Attempt } from "~/lib/leads/delivery.server";
import type { Lead } from "~/lib/leads/store.server";

import { statusText } from "./columns";

/** `retry`'s progress: what became of each lead it resent. */

export const note = (text: string) => process.stderr.write(`${text}\n`);
export const plural = (count: number, one: string, many = `${one}s`) =>
  `${count} ${count === 1 ? one : many}`;

export function describeAttempt(attempt: Attempt): string {
  if (!attempt.called)
    return `not sent (${attempt.sent.ok ? "" : attempt.sent.detail}): now ${attempt.state}`;
  if (attempt.sent.ok && attempt.state === "unknown")
    // The function has it; the store will hold it as possibly delivered when its lease runs out.
    return "delivered by the function, but the store could not record it: it will show as possibly delivered; do not send it again";
  if (attempt.sent.ok) return "delivered";
  const why = `${attempt.sent.reason}${attempt.sent.status ? ` ${attempt.sent.status}` : ""}`;
  return `failed (${why}): now ${attempt.state === "unknown" ? "unrecorded" : statusText(attempt.state)}`;
}

/** A bar on a terminal; one plain line per lead otherwise (CI logs, pipes). */
export function progressReporter(total: number) {
  if (process.stderr.isTTY) {
    const bar = new cliProgress.SingleBar(
      { stream: process.stderr, format: "Retrying [{bar}] {value}/{total}", hideCursor: true },
      cliProgress.Presets.shades_classic,
    );
    bar.start(total, 0);
    return { progress: (done: number) => bar.update(done), stop: () => bar.stop() };
  }
  note(`Retrying ${plural(total, "lead")}…`);
  return {
    progress: (done: number, lead?: Lead, attempt?: Attempt) =>
      lead && attempt && note(`[${done}/${total}] ${lead.id}: ${describeAttempt(attempt)}`),
    stop: () => undefined,
  };
}
