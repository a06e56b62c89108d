import { describe, expect, it } from "vitest";

import { errorText, redactUrl } from "~/lib/leads/database.server";

describe("what the lead store says about its database", () => {
  it("never prints a password", () => {
    expect(redactUrl("postgres://site:s3cret@db.example.com:5432/site?sslmode=require")).toBe(
      "postgres://site:***@db.example.com:5432/site?sslmode=require",
    );
    expect(redactUrl("postgres://site@127.0.0.1:5432/site")).toBe("postgres://site@127.0.0.1:5432/site");
  });

  it("names a driver error by its code", () => {
    expect(
      errorText(Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:1"), { code: "ECONNREFUSED" })),
    ).toBe("ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:1");
    expect(errorText("plain")).toBe("plain");
  });
});
