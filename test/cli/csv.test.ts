import { describe, expect, it } from "vitest";

import { toCsv } from "../../cli/leads/csv";

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
});
