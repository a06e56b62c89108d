import { describe, expect, it } from "vitest";

import { initials } from "~/lib/initials";

describe("initials", () => {
  it("takes the first letters of the first and last names", () => {
    expect(initials("Sarah Mitchell")).toBe("SM");
  });

  it("gives one letter for a one-word name", () => {
    expect(initials("Cher")).toBe("C");
  });

  it("uses the first and the last of three words", () => {
    expect(initials("James Robert Walker")).toBe("JW");
  });

  it("ignores surrounding and repeated whitespace", () => {
    expect(initials("   maria \t  gonzalez  ")).toBe("MG");
  });

  it("returns an empty string for a blank name", () => {
    expect(initials("   ")).toBe("");
  });

  it("keeps a character outside the Basic Multilingual Plane whole", () => {
    expect(initials("𝒜da Lovelace")).toBe("𝒜L");
  });
});
