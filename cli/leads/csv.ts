import { stringify } from "csv-stringify/sync";

export interface CsvColumn<Row> {
  header: string;
  value: (row: Row) => string | number | boolean | undefined;
}

export interface CsvOptions {
  /** Every value exactly as stored, formula-looking ones included (`export --csv --raw`). */
  raw?: boolean;
}

/**
 * The first characters with which a spreadsheet (Excel, LibreOffice, Google Sheets) may take a cell
 * for a formula or a DDE call: OWASP's CSV injection list (=, +, -, @, tab, carriage return).
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A visitor's value made inert for a spreadsheet, as OWASP's CSV injection guidance says: a value
 * that starts like a formula gets a single quote in front, so the cell is text. Nothing else
 * changes, so a phone number such as `+1 757 555 0101` reads `'+1 757 555 0101` (its digits
 * intact, never computed into 1.57E+10 or an error).
 */
export function neutraliseFormula(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

/**
 * RFC 4180 CSV: a header row, CRLF between records, and a field quoted (quotes doubled) when it
 * holds a comma, a quote or a line break. csv-stringify quotes a lone LF or CR only when told to
 * (`quoted_match`), since with CRLF records neither is its record delimiter. Text values are
 * neutralised for spreadsheets unless `raw`.
 */
export function toCsv<Row>(
  rows: readonly Row[],
  columns: readonly CsvColumn<Row>[],
  { raw = false }: CsvOptions = {},
): string {
  const cell = (value: string | number | boolean | undefined) =>
    typeof value === "string" && !raw ? neutraliseFormula(value) : (value ?? "");
  return stringify(
    rows.map((row) => columns.map((column) => cell(column.value(row)))),
    {
      header: true,
      columns: columns.map((column) => column.header),
      record_delimiter: "windows",
      quoted_match: /[\r\n]/,
      cast: { boolean: (value) => (value ? "true" : "false") },
    },
  );
}
