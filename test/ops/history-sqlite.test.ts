import Database from "better-sqlite3";
import { afterAll, describe, it } from "vitest";

import { leadStoreEnv } from "../support/app-server";
import type { Rule } from "../support/history/checker";
import { type Engine, storedLead } from "../support/history/scenario";
import { filesHolding } from "../support/leads";
import { historySuite } from "../support/history/suite";
import { readLeads } from "../support/leads";

/**
 * The randomized history test on SQLite (issue 33): see test/support/history/scenario.ts for the run
 * and checker.ts for the rules of decision 032 it proves over the whole history.
 */

const suite = historySuite("test/ops/history-sqlite.test.ts", 30);

/**
 * The fewest cases each rule must judge in a run (issue 51): about a third of the fewest that runs of
 * 30 s of faults gave on a loaded 2-core machine (docs/testing.md has their counts); "no crash" is
 * the instance's start and its restarts after the one SIGKILL and SIGTERM every run has.
 */
const MINIMUM_CASES: Record<Rule, number> = {
  "no crash": 3,
  "every call announced": 12,
  "stored before its first call": 12,
  "one call in flight": 15,
  "one confirmed call": 30,
  "no machine resend": 3,
  "one key": 8,
  "told sent means confirmed": 40,
  "delivered or held": 8,
  "held only when unsure": 5,
  "dead after the limit": 1,
  "forget leaves nothing": 3,
  "forgotten is never called": 2,
};

describe("a randomized history on SQLite: one instance and the CLI on one file, faults", () => {
  let stopRun: (() => Promise<void>) | undefined;

  afterAll(async () => {
    await stopRun?.();
  });

  it(
    "holds every rule of decision 032 over the whole history",
    () =>
      suite.withSeed(async () => {
        const dir = suite.dataDir("history-sqlite-");
        const storeEnv = leadStoreEnv(dir);
        const file = storeEnv.LEADS_DATABASE_FILE!;
        const engine: Engine = {
          name: "sqlite",
          storeEnv,
          async readLeads() {
            return readLeads(file).map((row) => storedLead({ ...row }));
          },
          // A reader of its own, as ops would open one (WAL: it never blocks the server); none
          // before the server created the file and its table.
          async holdsLead(id) {
            let database: Database.Database | undefined;
            try {
              database = new Database(file, { readonly: true, fileMustExist: true });
              return database.prepare("select 1 from leads where id = ?").get(id) !== undefined;
            } catch {
              return undefined;
            } finally {
              database?.close();
            }
          },
          async holding(needle) {
            return { files: filesHolding(dir, needle), rows: [] };
          },
        };
        await suite.runChecked({
          engine,
          slots: [{ name: "sqlite" }],
          visitors: 5,
          // One instance: down while it restarts (about 2 s), so less often.
          instanceFaultEveryMs: [3_000, 8_000],
          minimumCases: MINIMUM_CASES,
          onStart: (stop) => (stopRun = stop),
        });
      }),
    suite.testTimeout,
  );
});
