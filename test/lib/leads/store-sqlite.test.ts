import { describe } from "vitest";

import { sqliteEngine, storeContract } from "./store-contract";

describe("lead store on SQLite (a real file)", () => {
  storeContract(sqliteEngine());
});
