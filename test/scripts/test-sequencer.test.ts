import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

import { LONGEST_FIRST, longestFirst } from "../../scripts/test-sequencer.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));
const same = (file: string) => file;

describe("the order npm test starts its files in (issue 39)", () => {
  it("puts the longest files first, in the list's order, and keeps the order of the others", () => {
    const files = [
      "test/a.test.ts",
      "test/e2e/accessibility.test.ts",
      "test/b.test.ts",
      "test/e2e/engines-visitor.test.ts",
    ];
    expect(longestFirst(files, same)).toEqual([
      "test/e2e/engines-visitor.test.ts",
      "test/e2e/accessibility.test.ts",
      "test/a.test.ts",
      "test/b.test.ts",
    ]);
  });

  it("names files that exist: a renamed file would silently lose its place", () => {
    expect(LONGEST_FIRST.filter((file) => !existsSync(`${root}${file}`))).toEqual([]);
  });
});
