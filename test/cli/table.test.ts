import { describe, expect, it } from "vitest";

import { clusterWidth, displayWidth, escapeControls, fitCell, formatTable } from "../../cli/leads/table";

describe("the leads table: what a visitor typed, shown as it is", () => {
  it("escapes control characters visibly instead of passing them to the terminal", () => {
    expect(
      escapeControls("Grace\u001b[2J\u001b[31m Hopper\u0007\r\nline\u2028two\u2029\u009b\u007f\u0000"),
    ).toBe("Grace\\u001B[2J\\u001B[31m Hopper\\u0007\\r\\nline\\u2028two\\u2029\\u009B\\u007F\\u0000");
    expect(escapeControls("a\tb")).toBe("a\\tb");
  });

  it("escapes bidi embeddings, overrides, isolates and marks, which could make text read backwards", () => {
    expect(escapeControls("invoice\u202Efdp.exe")).toBe("invoice\\u202Efdp.exe");
    expect(escapeControls("\u202A\u202B\u202C\u202D\u2066\u2067\u2068\u2069\u200E\u200F\u061C")).toBe(
      "\\u202A\\u202B\\u202C\\u202D\\u2066\\u2067\\u2068\\u2069\\u200E\\u200F\\u061C",
    );
  });

  it("writes a backslash as \\\\, so that an escape cannot be faked", () => {
    expect(escapeControls("C:\\new")).toBe("C:\\\\new");
    expect(escapeControls("\\u202E")).not.toBe(escapeControls("\u202E"));
  });

  it("leaves letters, accents, emoji and other scripts alone", () => {
    const text = "Zoë Ñúñez, Zoe\u0301, 👩‍💻 🇫🇷 漢字 שלום";
    expect(escapeControls(text)).toBe(text);
  });
});

describe("the leads table: widths and cuts by grapheme cluster", () => {
  it("counts the columns a terminal gives each cluster", () => {
    expect(clusterWidth("a")).toBe(1);
    expect(clusterWidth("e\u0301")).toBe(1);
    expect(clusterWidth("👩‍💻")).toBe(2);
    expect(clusterWidth("🇫🇷")).toBe(2);
    expect(clusterWidth("❤️")).toBe(2);
    expect(clusterWidth("漢")).toBe(2);
    expect(clusterWidth("\u200B")).toBe(0);
    expect(displayWidth("Zoe\u0301 👩‍👩‍👧‍👦")).toBe(6);
    expect(displayWidth("a\nb")).toBe(4);
  });

  it("never cuts an emoji sequence, a flag or a letter from its accent", () => {
    expect(fitCell("👩‍💻👩‍💻👩‍💻", 5)).toEqual({ text: "👩‍💻👩‍💻…", width: 5 });
    expect(fitCell("🇫🇷🇩🇪🇮🇹", 5)).toEqual({ text: "🇫🇷🇩🇪…", width: 5 });
    expect(fitCell("🇫🇷🇩🇪🇮🇹", 4)).toEqual({ text: "🇫🇷…", width: 3 });
    expect(fitCell("abe\u0301cd", 4)).toEqual({ text: "abe\u0301…", width: 4 });
    expect(fitCell("👩‍👩‍👧‍👦", 2)).toEqual({ text: "👩‍👩‍👧‍👦", width: 2 });
  });

  it("never cuts an escape in half", () => {
    expect(fitCell("ab\u202Ecd", 6)).toEqual({ text: "ab…", width: 3 });
    expect(fitCell("ab\u202Ecd", 9)).toEqual({ text: "ab\\u202E…", width: 9 });
    expect(fitCell("ab\u202Ecd", 10)).toEqual({ text: "ab\\u202Ecd", width: 10 });
  });

  it("cuts long values with an ellipsis, and messages after a whole word", () => {
    expect(fitCell("abcdefghij", 5).text).toBe("abcd…");
    expect(fitCell("abc", 5).text).toBe("abc");
    expect(fitCell("We want to automate our invoicing and reporting", 20, "words").text).toBe(
      "We want to automate…",
    );
    expect(fitCell("Line one\nline two and more", 16, "words").text).toBe("Line one\\nline…");
  });

  it("lines up the columns under their headers, wide characters counted as two columns", () => {
    const table = formatTable(
      [
        { a: "1", b: "short" },
        { a: "漢字", b: "a much longer value" },
        { a: "🇫🇷", b: "x\ty" },
      ],
      [
        { header: "A", maxWidth: 5, value: (row: { a: string; b: string }) => row.a },
        { header: "Bee", maxWidth: 10, value: (row: { a: string; b: string }) => row.b },
      ],
    );
    expect(table).toBe(
      ["A     Bee", "----  ----------", "1     short", "漢字  a much lo…", "🇫🇷    x\\ty", ""].join("\n"),
    );
  });
});
