import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { dataFileProblem, dataFileProblems } from "~/lib/data-files.server";
import { parseEnv } from "~/lib/env.server";
import { ensureDirectorySync, withDeadline } from "~/lib/files.server";

describe("the data files' directories, checked at start", () => {
  it("creates missing directories, several levels deep", () => {
    const dir = mkdtempSync(join(tmpdir(), "data-files-"));
    expect(dataFileProblem("CONTACT_INBOX_FILE", join(dir, "a/b/c/inbox.jsonl"))).toBeNull();
  });

  it("answers for a path under /proc instead of retrying mkdir forever", () => {
    expect(() => ensureDirectorySync("/proc/nope/deeper")).toThrow();
    expect(dataFileProblem("CONTACT_INBOX_FILE", "/proc/nope/inbox.jsonl")).toBe(
      "CONTACT_INBOX_FILE: cannot create the directory /proc/nope of /proc/nope/inbox.jsonl (ENOENT)",
    );
  });

  it("names a path whose parent is a file", () => {
    const file = join(mkdtempSync(join(tmpdir(), "data-files-")), "plain");
    writeFileSync(file, "");
    expect(dataFileProblem("CONTACT_UNDELIVERED_FILE", join(file, "u.jsonl"))).toMatch(
      /^CONTACT_UNDELIVERED_FILE: cannot create the directory .*plain of .* \(ENOTDIR\)$/,
    );
  });

  it("checks the inbox only when it is where requests go", () => {
    const base = {
      CONTACT_INBOX_FILE: "/proc/nope/inbox.jsonl",
      CONTACT_UNDELIVERED_FILE: join(tmpdir(), "u.jsonl"),
    };
    expect(dataFileProblems(parseEnv(base))).toHaveLength(1);
    expect(
      dataFileProblems(parseEnv({ ...base, SUPABASE_URL: "https://x.supabase.co", SUPABASE_ANON_KEY: "k" })),
    ).toEqual([]);
  });
});

describe("withDeadline", () => {
  it("gives up waiting with ETIMEDOUT; work that finishes in time is returned", async () => {
    await expect(withDeadline(new Promise(() => undefined), 20, "a hung write")).rejects.toMatchObject({
      code: "ETIMEDOUT",
    });
    await expect(withDeadline(Promise.resolve(42), 1_000, "quick")).resolves.toBe(42);
  });
});
