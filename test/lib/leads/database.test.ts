import { describe, expect, it } from "vitest";

import { errorText, redactUrl, storeErrorClass } from "~/lib/leads/database.server";

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

  it.each([
    ["ECONNREFUSED", "refused"],
    ["28P01", "refused"], // password authentication failed
    ["3D000", "refused"], // database does not exist
    ["53300", "refused"], // too many connections
    ["SQLITE_CANTOPEN", "refused"],
    ["SQLITE_READONLY_DIRECTORY", "refused"],
    ["EACCES", "refused"],
    ["ETIMEDOUT", "timeout"],
    ["57014", "timeout"], // statement timeout
    ["SQLITE_BUSY", "timeout"],
    ["SQLITE_FULL", "full"],
    ["ENOSPC", "full"],
    ["SQLITE_NOTADB", "corrupt"],
    ["SQLITE_CORRUPT", "corrupt"],
    ["ENOTFOUND", "unreachable"],
    ["ECONNRESET", "unreachable"],
    ["08006", "unreachable"], // connection failure
    ["57P01", "unreachable"], // admin shutdown
    ["42P01", "error"], // undefined table: not a connection problem
  ])("classes the driver code %s as %s, for the public health check", (code, expected) => {
    const error = Object.assign(new Error(`connect ${code} db.internal:5432 user=site`), { code });
    expect(storeErrorClass(error)).toBe(expected);
  });

  it("classes an error without a code as a plain error, whatever its text says", () => {
    expect(storeErrorClass(new Error("Connection terminated due to connection timeout"))).toBe("error");
    expect(storeErrorClass("ECONNREFUSED")).toBe("error");
    expect(storeErrorClass(null)).toBe("error");
  });
});
