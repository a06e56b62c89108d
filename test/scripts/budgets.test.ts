import { describe, expect, it } from "vitest";

import { BUDGETS, codeLines, measure } from "../../scripts/budgets.mjs";

describe("npm run budgets: code lines, counted by TypeScript's parser", () => {
  it("counts a line that holds code, never a comment or a blank line; a `//` inside a string is code", () => {
    const text = [
      "/**",
      " * A doc comment: not code.",
      " */",
      "const url = `https://example.com",
      "// inside a template: still code`;",
      "",
      "// a line comment",
      "function f<T>(value: T): T { /* a comment beside code */",
      "  return value;",
      "}",
    ].join("\n");
    expect(codeLines(text, "example.ts")).toBe(5);
  });

  it("measures each budget's folder (a folder of code has code lines)", () => {
    for (const budget of BUDGETS) expect(measure(budget)).toBeGreaterThan(100);
  });
});
