import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

import { buildSync } from "esbuild";

import { describe, expect, it } from "vitest";

import { parseEnv } from "~/lib/env.server";
import { ensureDirectorySync } from "~/lib/files.server";

import {
  dataFileProblem,
  dataFileProblems,
  IMPORTING_RELEASE,
  previousReleaseRefusal,
} from "../../server/data-files";

const isRoot = process.getuid?.() === 0;

/**
 * `dataFileProblem` as a user without privileges meets it. Root may write anywhere, and CI runs as
 * root: there it runs in a process of `nobody` (setpriv), the module bundled for plain Node (a
 * child process: this file is not in the unit tier for that).
 */
function problemAsUnprivileged(variable: string, file: string): string | null {
  if (!isRoot) return dataFileProblem(variable, file);
  const dir = mkdtempSync(join(tmpdir(), "data-files-nobody-"));
  chmodSync(dir, 0o755);
  const script = join(dir, "problem.mjs");
  buildSync({
    stdin: {
      contents: `import { dataFileProblem } from "./server/data-files";
        process.stdout.write(JSON.stringify(dataFileProblem(process.argv[2], process.argv[3])));`,
      resolveDir: fileURLToPath(new URL("../..", import.meta.url)),
      loader: "ts",
    },
    bundle: true,
    platform: "node",
    format: "esm",
    outfile: script,
    logLevel: "silent",
  });
  chmodSync(script, 0o644);
  const output = execFileSync(
    "setpriv",
    ["--reuid=nobody", "--regid=nogroup", "--clear-groups", process.execPath, script, variable, file],
    { encoding: "utf8" },
  );
  return JSON.parse(output) as string | null;
}

describe("the lead store's file, checked at start", () => {
  it("creates missing directories, several levels deep", () => {
    const dir = mkdtempSync(join(tmpdir(), "data-files-"));
    expect(dataFileProblem("LEADS_DATABASE_FILE", join(dir, "a/b/c/leads.sqlite"))).toBeNull();
  });

  it("answers for a path under /proc instead of retrying mkdir forever", () => {
    expect(() => ensureDirectorySync("/proc/nope/deeper")).toThrow();
    expect(dataFileProblem("LEADS_DATABASE_FILE", "/proc/nope/leads.sqlite")).toBe(
      "LEADS_DATABASE_FILE: cannot create the directory /proc/nope of /proc/nope/leads.sqlite (ENOENT)",
    );
  });

  it("names a path whose parent is a file", () => {
    const file = join(mkdtempSync(join(tmpdir(), "data-files-")), "plain");
    writeFileSync(file, "");
    expect(dataFileProblem("LEADS_DATABASE_FILE", join(file, "leads.sqlite"))).toMatch(
      /^LEADS_DATABASE_FILE: cannot create the directory .*plain of .* \(ENOTDIR\)$/,
    );
  });

  it("names a path that is a directory", () => {
    const dir = mkdtempSync(join(tmpdir(), "data-files-"));
    mkdirSync(join(dir, "leads.sqlite"));
    expect(dataFileProblem("LEADS_DATABASE_FILE", join(dir, "leads.sqlite"))).toBe(
      `LEADS_DATABASE_FILE: ${join(dir, "leads.sqlite")} is not a regular file`,
    );
  });

  it(`names a folder that is not writable${isRoot ? " (run as nobody)" : ""}`, () => {
    const dir = mkdtempSync(join(tmpdir(), "data-files-"));
    chmodSync(dir, 0o555);
    try {
      expect(problemAsUnprivileged("LEADS_DATABASE_FILE", join(dir, "leads.sqlite"))).toBe(
        `LEADS_DATABASE_FILE: the directory ${dir} of ${join(dir, "leads.sqlite")} is not writable (EACCES)`,
      );
    } finally {
      chmodSync(dir, 0o700);
    }
  });

  it("checks LEADS_DATABASE_FILE (with or without the function), and nothing when PostgreSQL keeps the leads", () => {
    const base = { LEADS_DATABASE_FILE: "/proc/nope/leads.sqlite" };
    expect(dataFileProblems(parseEnv(base))).toEqual([
      "LEADS_DATABASE_FILE: cannot create the directory /proc/nope of /proc/nope/leads.sqlite (ENOENT): use a path the server's user can write, for example LEADS_DATABASE_FILE=/var/lib/agency-site/leads.sqlite.",
    ]);
    expect(
      dataFileProblems(parseEnv({ ...base, SUPABASE_URL: "https://x.supabase.co", SUPABASE_ANON_KEY: "k" })),
    ).toHaveLength(1);
    expect(
      dataFileProblems(parseEnv({ ...base, DATABASE_URL: "postgres://site@127.0.0.1:5432/leads" })),
    ).toEqual([]);
  });
});

describe("previousReleaseRefusal (decision 050)", () => {
  const folder =
    (...names: string[]) =>
    () =>
      names;

  it("a data folder without a file of the release before the lead store: no refusal (and one never created)", () => {
    expect(
      previousReleaseRefusal("/srv/site/leads.sqlite", folder("leads.sqlite", "leads.sqlite-wal")),
    ).toBeNull();
    expect(previousReleaseRefusal(join(tmpdir(), "never-created", "leads.sqlite"))).toBeNull();
  });

  it("a file not imported yet: names the folder, the file and the release that imports it", () => {
    expect(
      previousReleaseRefusal(
        "/srv/site/leads.sqlite",
        folder("leads.sqlite", "undelivered-contact-requests.jsonl"),
      ),
    ).toBe(
      "/srv/site holds undelivered-contact-requests.jsonl: leads of the release before the lead store, which this release " +
        `neither imports nor erases. Start the release of commit ${IMPORTING_RELEASE} on this folder, run ` +
        "`npm run leads -- import` there once (it moves the leads into the store and renames each file " +
        "<file>.imported-<time>), then delete the renamed files and start this release again.",
    );
  });

  it("only the copies that release's import renamed: asks for them to be deleted", () => {
    const refusal = previousReleaseRefusal(
      "/srv/site/leads.sqlite",
      folder("contact-requests.jsonl.imported-2026-11-20T10-00-00-000Z", "leads.sqlite"),
    );
    expect(refusal).toMatch(
      /^\/srv\/site holds contact-requests\.jsonl\.imported-2026-11-20T10-00-00-000Z: leads of/,
    );
    expect(refusal).toContain(`The release of commit ${IMPORTING_RELEASE} imported them: delete them`);
  });
});
