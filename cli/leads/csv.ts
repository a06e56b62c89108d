import { stringify } from "csv-stringify/sync";

export interface CsvColumn<Row> {
  header: string;
  value: (row: Row) => string | number | boolean | undefined;
}

/** What makes a spreadsheet take a cell for a formula or a DDE call (OWASP's CSV injection list). */
const FORMULA_START = /^[=+\-@\t\r]/;

/** A leading single quote makes a formula-like value text (`'+1 757 555 0101` keeps its digits). */
export function neutraliseFormula(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

/**
 * RFC 4180 CSV, text neutralised unless `raw` (`export --csv --raw`: every value exactly as stored,
 * formula-looking ones included). csv-stringify quotes a lone LF or CR only when told
 * (`quoted_match`): with CRLF records neither is its delimiter.
 */
export function toCsv<Row>(
  rows: readonly Row[],
  columns: readonly CsvColumn<Row>[],
  { raw = false }: { raw?: boolean } = {},
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
