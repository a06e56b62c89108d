import { afterAll, beforeAll } from "vitest";

import { describeWithPostgres, type PostgresServer, startPostgres } from "../support/postgres";
import { storeContract } from "../lib/leads/store-contract";

describeWithPostgres("lead store on PostgreSQL (a real server)", () => {
  let server: PostgresServer;
  beforeAll(async () => {
    server = await startPostgres();
  });
  afterAll(async () => {
    await server?.destroy();
  });
  storeContract({
    fresh: async () => ({ databaseUrl: await server.createDatabase(), file: "" }),
    severalInstances: true,
  });
});
