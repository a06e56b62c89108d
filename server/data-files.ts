import { accessSync, constants, readdirSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";

import type { Env } from "~/lib/env.server";
import { ensureDirectorySync, errorCode } from "~/lib/files.server";

/** Checked at start, so an unusable path stops the server rather than a visitor's submission. */
export function dataFileProblem(variable: string, file: string): string | null {
  const path = resolve(file);
  const dir = dirname(path);
  try {
    ensureDirectorySync(dir);
  } catch (error) {
    return `${variable}: cannot create the directory ${dir} of ${file} (${errorCode(error)})`;
  }
  try {
    accessSync(dir, constants.W_OK);
  } catch (error) {
    return `${variable}: the directory ${dir} of ${file} is not writable (${errorCode(error)})`;
  }
  try {
    if (!statSync(path).isFile()) return `${variable}: ${file} is not a regular file`;
    accessSync(path, constants.W_OK);
  } catch (error) {
    const code = errorCode(error);
    if (code !== "ENOENT") return `${variable}: ${file} is not writable (${code})`;
  }
  return null;
}

/** The file this configuration writes: the embedded lead store, unless PostgreSQL keeps the leads. */
export function dataFileProblems(env: Env): string[] {
  if (env.DATABASE_URL) return [];
  const problem = dataFileProblem("LEADS_DATABASE_FILE", env.LEADS_DATABASE_FILE);
  // One sentence, as every configuration error: the variable, the problem, a value that works.
  return problem
    ? [
        `${problem}: use a path the server's user can write, for example LEADS_DATABASE_FILE=/var/lib/agency-site/leads.sqlite.`,
      ]
    : [];
}

/** The last release with `npm run leads -- import`, by commit (decision 050). */
export const IMPORTING_RELEASE = "6bce7b3";

/** Where the release before the lead store kept its leads, in the same data folder. */
const PREVIOUS_RELEASE_FILES = ["contact-requests.jsonl", "undelivered-contact-requests.jsonl"];

/** A file of that release, imported (renamed `<file>.imported-<time>`) or not. */
const isPreviousReleaseFile = (name: string) =>
  PREVIOUS_RELEASE_FILES.some((file) => name === file || name.startsWith(`${file}.imported-`));

function namesIn(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return []; // No folder yet, or one the server cannot read: dataFileProblems names the latter.
  }
}

/**
 * Why this release must not start on the data folder of LEADS_DATABASE_FILE, or null (decision
 * 050): it holds older leads this release neither imports nor erases.
 */
export function previousReleaseRefusal(databaseFile: string, names = namesIn): string | null {
  const dir = dirname(resolve(databaseFile));
  const found = names(dir).filter(isPreviousReleaseFile).sort();
  if (found.length === 0) return null;
  const waiting = found.some((name) => PREVIOUS_RELEASE_FILES.includes(name));
  return (
    `${dir} holds ${found.join(", ")}: leads of the release before the lead store, which this release neither ` +
    "imports nor erases. " +
    (waiting
      ? `Start the release of commit ${IMPORTING_RELEASE} on this folder, run \`npm run leads -- import\` there once ` +
        "(it moves the leads into the store and renames each file <file>.imported-<time>), then delete the renamed files " +
        "and start this release again."
      : `The release of commit ${IMPORTING_RELEASE} imported them: delete them (a line it could not read is kept ` +
        "there for a person) and start this release again.")
  );
}
