import { describe, expect, it } from "vitest";

import { neutraliseFormula, toCsv } from "../../cli/leads/csv";

const columns = [
  { header: "name", value: (row: Record<string, string | boolean>) => row.name as string },
  { header: "message", value: (row: Record<string, string | boolean>) => row.message as string },
  { header: "flag", value: (row: Record<string, string | boolean>) => row.flag as boolean | undefined },
];

describe("CSV export (RFC 4180)", () => {
  it("starts with a header row and ends every record with CRLF", () => {
    expect(toCsv([{ name: "Ada", message: "Hello", flag: true }], columns)).toBe(
      "name,message,flag\r\nAda,Hello,true\r\n",
    );
  });

  it("quotes a value with a comma, and doubles the quotes in a quoted value", () => {
    expect(toCsv([{ name: 'Langley & "Sons", Ltd', message: "a,b", flag: false }], columns)).toBe(
      'name,message,flag\r\n"Langley & ""Sons"", Ltd","a,b",false\r\n',
    );
  });

  it("quotes a value holding a line break, whether LF, CR or CRLF", () => {
    const csv = toCsv(
      [
        { name: "lf", message: "line one\nline two" },
        { name: "cr", message: "line one\rline two" },
        { name: "crlf", message: "line one\r\nline two" },
      ],
      columns,
    );
    expect(csv).toBe(
      'name,message,flag\r\nlf,"line one\nline two",\r\ncr,"line one\rline two",\r\ncrlf,"line one\r\nline two",\r\n',
    );
  });

  it("a header row only when there is nothing to export", () => {
    expect(toCsv([], columns)).toBe("name,message,flag\r\n");
  });

  it("empty and missing values are empty fields", () => {
    expect(toCsv([{ name: "", message: "" }], columns)).toBe("name,message,flag\r\n,,\r\n");
  });

  it("neutralises a value a spreadsheet would evaluate (OWASP): a single quote in front, nothing else changed", () => {
    expect(
      toCsv([{ name: '=HYPERLINK("http://evil.example","click")', message: "+cmd|' /C calc'!A0" }], columns),
    ).toBe(
      'name,message,flag\r\n"\'=HYPERLINK(""http://evil.example"",""click"")",\'+cmd|\' /C calc\'!A0,\r\n',
    );
  });

  it("--raw keeps every value as it is", () => {
    expect(toCsv([{ name: "=1+2", message: "@SUM(A1)" }], columns, { raw: true })).toBe(
      "name,message,flag\r\n=1+2,@SUM(A1),\r\n",
    );
  });
});

describe("neutraliseFormula", () => {
  it("prefixes a value starting with =, +, -, @, tab or carriage return", () => {
    for (const value of ["=1+1", "+1", "-2+3", "@SUM(A1:A2)", "\t=1", "\r=1"]) {
      expect(neutraliseFormula(value)).toBe(`'${value}`);
    }
  });

  it("leaves every other value alone, a formula character later in the text included", () => {
    for (const value of ["Ada Lovelace", "a=b", "x+1", "mary@example.com", " =1", "'=1", "", "\n=1"]) {
      expect(neutraliseFormula(value)).toBe(value);
    }
  });

  it("keeps a phone number readable: its digits and + intact after the quote", () => {
    expect(neutraliseFormula("+1 757 555 0101")).toBe("'+1 757 555 0101");
    expect(neutraliseFormula("(757) 555-0101")).toBe("(757) 555-0101");
  });
});
