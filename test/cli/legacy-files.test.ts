import { describe, expect, it } from "vitest";

import { inboxRows, lineHoldsAddress, undeliveredRows } from "../../cli/leads/legacy-files";

/**
 * The previous release's files (issue 33): a line the database would refuse stays for a person
 * and the rest is imported; forget finds an address in a line as a whole address.
 */

const request = (overrides: Record<string, string> = {}) => ({
  name: "Ada",
  email: "ada@example.com",
  phone: "",
  company: "",
  website: "",
  companySize: "",
  industry: "",
  message: "Please automate the engine.",
  ...overrides,
});

const NOW = Date.UTC(2026, 10, 28);

describe("importing the previous release's files", () => {
  it("an inbox line holding U+0000 is left unread (PostgreSQL refuses it); every other line is imported", () => {
    const text = [
      JSON.stringify(request({ message: "First, fine." })),
      JSON.stringify(request({ message: "Bad\u0000byte." })),
      JSON.stringify(request({ message: "Third, fine." })),
    ].join("\n");
    const { rows, unreadable } = inboxRows(text, NOW);
    expect(rows.map((row) => JSON.parse(row.request ?? "{}").message)).toEqual([
      "First, fine.",
      "Third, fine.",
    ]);
    expect(unreadable).toBe(1);
  });

  it("an undelivered entry holding U+0000 is left unread; the others are imported", () => {
    const entry = (id: string, message: string) =>
      JSON.stringify({
        kind: "undelivered",
        id,
        request: request({ message }),
        failedAt: "2026-11-01T00:00:00Z",
      });
    const text = [entry("a", "Fine one."), entry("b", "Bad\u0000one."), entry("c", "Fine two.")].join("\n");
    const { rows, unreadable } = undeliveredRows(text, NOW);
    expect(rows.map((row) => row.id)).toEqual(["a", "c"]);
    expect(unreadable).toBe(1);
  });
});

describe("lineHoldsAddress", () => {
  const line = JSON.stringify(request({ email: "Mary@Example.com" }));
  it("finds the address in any case, as a whole address", () => {
    expect(lineHoldsAddress(line, "mary@example.com")).toBe(true);
    expect(lineHoldsAddress(line, " MARY@EXAMPLE.COM ")).toBe(true);
    expect(
      lineHoldsAddress(JSON.stringify(request({ email: "annemary@example.com" })), "mary@example.com"),
    ).toBe(false);
    expect(
      lineHoldsAddress(JSON.stringify(request({ email: "mary@example.com.au" })), "mary@example.com"),
    ).toBe(false);
  });

  it("composes both sides (NFC) and undoes JSON escapes", () => {
    const decomposed = JSON.stringify(request({ email: "E\u0301lodie@example.com" }));
    expect(lineHoldsAddress(decomposed, "\u00e9lodie@example.com")).toBe(true);
    expect(lineHoldsAddress('{"email":"\\u00c9lodie@example.com"}', "E\u0301LODIE@example.com")).toBe(true);
  });

  it("reads a damaged line as text", () => {
    expect(lineHoldsAddress('{"email": "mary@example.com', "mary@example.com")).toBe(true);
    expect(lineHoldsAddress('{"email": "grace@example.com', "mary@example.com")).toBe(false);
  });
});
