import Database from "better-sqlite3";
import { beforeEach, describe, expect, it } from "vitest";

import { leadStoreEnv, useAppWithFunction } from "../support/app-server";
import { readLeads } from "../support/leads";

/**
 * A busy store is not down (decisions, "Outcome of a call"): another program holding the SQLite
 * store's write lock for 3 s (a backup, a `forget`'s VACUUM) makes a post wait, within the call's
 * time, and the post is kept and sent once, instead of being refused.
 */
describe("the SQLite store busy for a moment", () => {
  const store = leadStoreEnv();
  const file = store.LEADS_DATABASE_FILE!;
  const app = useAppWithFunction(store);
  beforeEach(() => app.fake.reset());

  const post = (message: string) =>
    fetch(`${app.server.url}/?index`, {
      method: "POST",
      body: new URLSearchParams({ name: "Busy Test", email: "busy@example.com", message }),
      redirect: "manual",
    });

  it("a post made while another program holds the write lock for 3 s waits for it, and is kept and sent once", async () => {
    // The store exists once the server answers a first post.
    expect((await post("A first request, before anything holds the file.")).status).toBe(303);
    const message = "A request while another program holds the write lock.";
    const other = new Database(file);
    let answer: Response;
    try {
      other.exec("begin immediate");
      const posting = post(message);
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      other.exec("rollback");
      answer = await posting;
    } finally {
      if (other.inTransaction) other.exec("rollback");
      other.close();
    }
    expect(answer.status).toBe(303);
    const lead = readLeads(file).find((row) => row.message === message);
    expect(lead).toMatchObject({ state: "delivered" });
    const calls = app.fake.requests.filter(
      (request) => (request.json as { message?: string }).message === message,
    );
    expect(calls.map((request) => request.headers["idempotency-key"])).toEqual([lead!.id]);
    expect(app.server.output()).not.toContain('"event":"lead_store_unavailable"');
  });
});
