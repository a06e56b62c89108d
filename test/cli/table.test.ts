import { describe, expect, it } from "vitest";

import { firstWords, formatTable, oneLine, truncate } from "../../cli/leads/table";

describe("the leads table", () => {
  it("never passes a visitor's control characters to the terminal", () => {
    expect(oneLine("Grace\u001b[2J\u001b[31m Hopper\u0007\r\nline\u2028two\u009b")).toBe(
      "Grace [2J [31m Hopper line two",
    );
  });

  it("cuts long values with an ellipsis, and messages after a whole word", () => {
    expect(truncate("abcdefghij", 5)).toBe("abcd…");
    expect(truncate("abc", 5)).toBe("abc");
    expect(firstWords("We want to automate our invoicing and reporting", 20)).toBe("We want to automate…");
  });

  it("lines up the columns under their headers", () => {
    const table = formatTable(
      [
        { a: "1", b: "short" },
        { a: "22", b: "a much longer value" },
      ],
      [
        { header: "A", maxWidth: 5, value: (row: { a: string; b: string }) => row.a },
        { header: "Bee", maxWidth: 10, value: (row: { a: string; b: string }) => row.b },
      ],
    );
    expect(table).toBe(["A   Bee", "--  ----------", "1   short", "22  a much lo…", ""].join("\n"));
  });
});
