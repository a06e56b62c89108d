// Throwaway PostgreSQL servers for the tests (no password, loopback only, no fsync). The process
// logic lives in scripts/postgres.mjs, plain JavaScript, so that the benchmark can start the same
// servers; this module adds what only vitest needs.
import { describe } from "vitest";

import {
  INSTALL_HINT,
  isAlive,
  postgresAvailable,
  postgresRequired,
  startPostgres,
} from "../../scripts/postgres.mjs";

export { postgresAvailable, startPostgres };
export type PostgresServer = Awaited<ReturnType<typeof startPostgres>>;

/** Without PostgreSQL the suite is skipped behind a loud banner, or fails where it is required. */
export function describeWithPostgres(name: string, fn: () => void): void {
  const found = postgresAvailable();
  if (found.ok) {
    describe(name, fn);
    return;
  }
  const message = `PostgreSQL is missing: ${found.reason}. Install it: ${INSTALL_HINT}`;
  if (postgresRequired()) {
    describe(name, () => {
      throw new Error(`${message} (required here: CI=true or REQUIRE_POSTGRES=1)`);
    });
    return;
  }
  const lines = [`SKIPPING "${name}"`, message, "(CI=true or REQUIRE_POSTGRES=1 make this a failure)"];
  const width = Math.max(...lines.map((line) => line.length)) + 4;
  const bar = "!".repeat(width);
  console.warn(["", bar, ...lines.map((line) => `! ${line.padEnd(width - 4)} !`), bar, ""].join("\n"));
  describe.skip(name, fn);
}

/** Whether a process (e.g. a server's `pid`) still exists. */
export { isAlive };
