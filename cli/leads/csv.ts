import { stringify } from "csv-stringify/sync";

export interface CsvColumn<Row> {
  header: string;
  value: (row: Row) => string | number | boolean | undefined;
}

/**
 * RFC 4180 CSV: a header row, CRLF between records, and a field quoted (quotes doubled) when it
 * holds a comma, a quote or a line break. csv-stringify quotes a lone LF or CR only when told to
 * (`quoted_match`), since with CRLF records neither is its record delimiter.
 */
export function toCsv<Row>(rows: readonly Row[], columns: readonly CsvColumn<Row>[]): string {
  return stringify(
    rows.map((row) => columns.map((column) => column.value(row) ?? "")),
    {
      header: true,
      columns: columns.map((column) => column.header),
      record_delimiter: "windows",
      quoted_match: /[\r\n]/,
      cast: { boolean: (value) => (value ? "true" : "false") },
    },
  );
}
