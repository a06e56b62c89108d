import { describe, expect, it } from "vitest";

import {
  clusterWidth,
  type Column,
  displayWidth,
  escapeControls,
  fitCell,
  fitColumns,
  formatRecords,
  formatTable,
} from "../../cli/leads/table";

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

describe("the leads table: fitting a terminal's width", () => {
  interface Row {
    status: string;
    name: string;
    message: string;
  }
  const columns: Column<Row>[] = [
    { header: "Status", maxWidth: 18, value: (row) => row.status },
    { header: "Name", maxWidth: 24, minWidth: 8, value: (row) => row.name },
    { header: "Message", maxWidth: 48, minWidth: 10, cut: "words", value: (row) => row.message },
  ];
  const rows: Row[] = [
    {
      status: "pending",
      name: "Katherine Johnson",
      message: "Please compute the trajectories for our next launch window",
    },
    {
      status: "possibly-delivered",
      name: "Zoe\u0301 👩‍💻 Ñúñez",
      message: "漢字 and 🇫🇷 in a message that is long enough",
    },
  ];
  const widthsOf = (table: string) => table.trimEnd().split("\n").map(displayWidth);

  it("fitColumns keeps the natural widths when they fit (two columns between each)", () => {
    expect(fitColumns(columns, [18, 17, 48], 18 + 17 + 48 + 4)).toEqual([18, 17, 48]);
    expect(fitColumns(columns, [18, 17, 48], 1_000)).toEqual([18, 17, 48]);
  });

  it("fitColumns takes columns from the widest narrowable column first, never from one without a minimum", () => {
    const widths = fitColumns(columns, [18, 17, 48], 60);
    expect(widths[0]).toBe(18);
    expect(widths.reduce((sum, width) => sum + width, 0) + 4).toBe(60);
    // The message (widest) gave up columns until it was as narrow as the name, then both shrank together.
    expect(widths).toEqual([18, 17, 21]);
    const tighter = fitColumns(columns, [18, 17, 48], 50);
    expect(tighter[0]).toBe(18);
    expect(Math.abs((tighter[1] ?? 0) - (tighter[2] ?? 0))).toBeLessThanOrEqual(1);
    expect(tighter.reduce((sum, width) => sum + width, 0) + 4).toBe(50);
  });

  it("fitColumns stops at each column's minimum, even when the terminal is narrower still", () => {
    expect(fitColumns(columns, [18, 17, 48], 10)).toEqual([18, 8, 10]);
    // A column already at or under its minimum is left as it is.
    expect(fitColumns(columns, [18, 5, 48], 10)).toEqual([18, 5, 10]);
  });

  it("formatTable with a terminal width: every line fits, cut values end with …, wide characters counted as two", () => {
    for (const width of [40, 50, 60, 80]) {
      const table = formatTable(rows, columns, width);
      expect(Math.max(...widthsOf(table))).toBeLessThanOrEqual(width);
      // Still one line per row, under a header and a rule.
      expect(table.trimEnd().split("\n")).toHaveLength(4);
      expect(table).toMatch(/^Status\s+Name\s+Message\n-+ {2}-+ {2}-+\n/);
    }
    const narrow = formatTable(rows, columns, 40);
    expect(narrow).toContain("possibly-delivered  ");
    // Name and Message at their minimums (8 and 10 columns), the message cut after a whole word.
    expect(narrow).toContain("pending             Katheri…  Please…\n");
    // Never an emoji, a flag or an accent cut in half.
    expect(narrow).not.toMatch(/\u200d…|\u{1f1eb}…/u);
  });

  it("formatTable without a width, or with a wide one, is the natural table (each column up to its maxWidth)", () => {
    const natural = formatTable(rows, columns);
    expect(formatTable(rows, columns, 200)).toBe(natural);
    expect(natural).toContain("Katherine Johnson  Please compute the trajectories for our…\n");
    expect(Math.max(...widthsOf(natural))).toBeGreaterThan(60);
    expect(Math.max(...widthsOf(natural))).toBeLessThanOrEqual(18 + 2 + 24 + 2 + 48);
  });

  it("formatTable never narrows below the minimums: a terminal too narrow lists one record per row instead", () => {
    const records = formatTable(rows, columns, 20);
    expect(records).toBe(formatRecords(rows, columns, 20));
    expect(records.split("\n").slice(0, 4)).toEqual([
      "-[ RECORD 1 ]-------",
      "Status  | pending",
      "Name    | Katherine…",
      "Message | Please…",
    ]);
    expect(records).toContain("-[ RECORD 2 ]");
    expect(records).toContain("Status  | possibly-delivered");
    // The narrowest table there is (at 40 columns) is still a table.
    expect(formatTable(rows, columns, 40).split("\n")[0]).toBe("Status              Name      Message");
  });
});

describe("what gives way to a narrow terminal, and what never does (issue 33)", () => {
  interface Lead {
    name: string;
    email: string;
    phone: string;
    company: string;
    message: string;
  }
  const columns: Column<Lead>[] = [
    { header: "Name", maxWidth: 24, minWidth: 6, givesWay: 2, value: (row) => row.name },
    { header: "E-mail", maxWidth: 32, whole: true, value: (row) => row.email },
    { header: "Phone", maxWidth: 18, whole: true, value: (row) => row.phone },
    { header: "Company", maxWidth: 20, minWidth: 4, givesWay: 1, value: (row) => row.company },
    { header: "Message", maxWidth: 48, minWidth: 8, cut: "words", givesWay: 0, value: (row) => row.message },
  ];
  const lead: Lead = {
    name: "Grace Brewster Murray Hopper",
    email: "grace.brewster.murray.hopper.22461@navy.example.com",
    phone: "+1 513 555 0199 ext 2217",
    company: "United States Navy Reserve",
    message: "Please automate the compiler's nightly reports, every one of them, thank you.",
  };

  it("the message gives way first, then the company, then the name; the e-mail and phone are never cut", () => {
    const natural = formatTable([lead], columns);
    expect(natural).toContain(lead.email);
    expect(natural).toContain(lead.phone);
    const width = Math.max(...natural.trimEnd().split("\n").map(displayWidth));
    // A little narrower: only the message gives way.
    const shorter = formatTable([lead], columns, width - 10);
    expect(shorter).toContain("United States Navy …");
    expect(shorter).toContain("Grace Brewster Murray H…");
    expect(shorter).not.toContain(lead.message);
    const tight = formatTable([lead], columns, 6 + 2 + 51 + 2 + 24 + 2 + 4 + 2 + 8 + 12);
    // The message and the company at their minimums, and the name giving way last.
    expect(tight).toContain("  Uni…  Please…\n");
    expect(tight).toContain("Grace Brewster Mu…  ");
    for (const table of [shorter, tight]) {
      expect(table).toContain(lead.email);
      expect(table).toContain(lead.phone);
    }
  });

  it("where even the minimums do not fit, one record per lead with the e-mail and phone whole", () => {
    const records = formatTable([lead, { ...lead, email: "ada@example.com" }], columns, 60);
    expect(records).toContain(`E-mail  | ${lead.email}\n`);
    expect(records).toContain(`Phone   | ${lead.phone}\n`);
    expect(records).toContain("E-mail  | ada@example.com\n");
    expect(records).toContain("-[ RECORD 2 ]");
    for (const line of records.trimEnd().split("\n"))
      if (!line.startsWith("E-mail")) expect(displayWidth(line)).toBeLessThanOrEqual(60);
  });
});
