import type { Kysely } from "kysely";

import type { OpenDatabase, StoreErrorClass } from "~/lib/leads/database.server";
import { errorText, storeError, writeTransaction } from "~/lib/leads/database.server";
import { migrateToLatest } from "~/lib/leads/migrations.server";

/**
 * Whether the lead store answers: connected and migrated at start, marked down by an error that
 * says so (a busy store is not down), and reconnected every `reconnectMs` until it takes a write.
 */

export interface StoreStatus {
  engine: OpenDatabase["engine"];
  location: string;
  state: "connecting" | "ready" | "unavailable";
  /** Why it is unavailable, with the driver's detail: for the log and the startup line only. */
  reason?: string;
  /** The same as a class, for what the public may read (/healthz). */
  reasonClass?: StoreErrorClass;
}

export class StoreUnavailableError extends Error {
  constructor(reason: string) {
    super(`the lead store is unavailable: ${reason}`);
    this.name = "StoreUnavailableError";
  }
}

export function createConnection(
  database: OpenDatabase,
  reconnectMs: number,
  log: (event: Record<string, unknown>) => void,
) {
  const { engine, location } = database;
  let status: StoreStatus = { engine, location, state: "connecting" };
  let reconnect: NodeJS.Timeout | undefined;
  let starting: Promise<StoreStatus> | undefined;
  let closed = false;
  /** Work that must reach the store before it closes (a claim handed back), awaited by `close`. */
  const unfinished = new Set<Promise<unknown>>();

  const markDown = (error: unknown) => {
    const wasDown = status.state === "unavailable";
    const reason = errorText(error);
    status = { engine, location, state: "unavailable", reason, reasonClass: storeError(error).errorClass };
    // Each failed reconnect too: ops see it is still trying, and why.
    log({ event: wasDown ? "lead_store_still_unavailable" : "lead_store_unavailable", engine, reason });
    if (closed || reconnect) return;
    reconnect = setTimeout(() => {
      reconnect = undefined;
      void connect();
    }, reconnectMs);
    reconnect.unref();
  };

  /** Connects and migrates; coming back, it must take a write (a full disk still answers reads). */
  const connect = async (): Promise<StoreStatus> => {
    try {
      const wasDown = status.state === "unavailable";
      const applied = await migrateToLatest(database.db as unknown as Kysely<unknown>, engine);
      if (wasDown)
        await writeTransaction(database, async (trx) => {
          await trx.insertInto("leadAlerts").values({ kind: "(write check)", sentAt: 0 }).execute();
          await trx.deleteFrom("leadAlerts").where("kind", "=", "(write check)").execute();
        });
      status = { engine, location, state: "ready" };
      log({ event: wasDown ? "lead_store_reconnected" : "lead_store_ready", engine, migrations: applied });
    } catch (error) {
      markDown(error);
    }
    return status;
  };

  return {
    start: (): Promise<StoreStatus> => (starting ??= connect()),

    status: (): StoreStatus => status,

    /** Fails fast while the store is down; marks it down when an error says so. */
    async guarded<T>(work: () => Promise<T>): Promise<T> {
      if (status.state !== "ready") throw new StoreUnavailableError(status.reason ?? status.state);
      try {
        return await work();
      } catch (error) {
        if (!storeError(error).down) throw error;
        markDown(error);
        throw new StoreUnavailableError(errorText(error));
      }
    },

    finishBeforeClose(work: Promise<unknown>): void {
      const settled = work.catch(() => undefined).finally(() => unfinished.delete(settled));
      unfinished.add(settled);
    },

    async close(): Promise<void> {
      await Promise.all([...unfinished]);
      closed = true;
      if (reconnect) clearTimeout(reconnect);
      await database.db.destroy();
    },
  };
}
