import { describe, expect, it } from "vitest";

import { withoutLoneLastWord } from "~/lib/typography";

const NBSP = "\u00a0";

describe("withoutLoneLastWord", () => {
  it("joins the last two words of a text with a no-break space", () => {
    expect(withoutLoneLastWord("Lower operating costs on the processes we automate.")).toBe(
      `Lower operating costs on the processes we${NBSP}automate.`,
    );
    expect(withoutLoneLastWord("Across our team and community")).toBe(`Across our team and${NBSP}community`);
  });

  it("keeps every other space and every character", () => {
    const text = "Most projects pay for themselves within two quarters.";
    const glued = withoutLoneLastWord(text);
    expect(glued.replaceAll(NBSP, " ")).toBe(text);
    expect(glued.split(NBSP)).toHaveLength(2);
  });

  it("leaves one or two words alone: there is no other way to wrap them", () => {
    expect(withoutLoneLastWord("Questions, answered")).toBe("Questions, answered");
    expect(withoutLoneLastWord("Discord")).toBe("Discord");
    expect(withoutLoneLastWord("")).toBe("");
  });

  it("leaves a last pair longer than the limit alone (it could be wider than a narrow column)", () => {
    expect(withoutLoneLastWord("Training and ongoing support")).toBe("Training and ongoing support");
    expect(withoutLoneLastWord("Rather build automations yourself?", 12)).toBe(
      "Rather build automations yourself?",
    );
    expect(withoutLoneLastWord("Rather build automations yourself?", 21)).toBe(
      `Rather build automations${NBSP}yourself?`,
    );
  });

  it("keeps trailing whitespace where it was", () => {
    expect(withoutLoneLastWord("one two three ")).toBe(`one two${NBSP}three `);
  });
});
