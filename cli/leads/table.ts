/**
 * A plain-text table for a terminal. Every value comes from a visitor, so control characters
 * (which could move the cursor or recolour the terminal) become spaces and line breaks are folded.
 */

export interface Column<Row> {
  header: string;
  /** The most characters a cell shows; longer values end with "…". */
  maxWidth: number;
  value: (row: Row) => string;
}

// C0 and C1 control characters, DEL, and the Unicode line/paragraph separators.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g;

/** The value on one line, without control characters or runs of spaces. */
export function oneLine(value: string): string {
  return value.replace(CONTROL, " ").replace(/\s+/g, " ").trim();
}

export function truncate(value: string, width: number): string {
  const chars = [...value];
  return chars.length <= width ? value : `${chars.slice(0, Math.max(0, width - 1)).join("")}…`;
}

const length = (value: string) => [...value].length;
const pad = (value: string, width: number) => value + " ".repeat(Math.max(0, width - length(value)));

export function formatTable<Row>(rows: readonly Row[], columns: readonly Column<Row>[]): string {
  const cells = rows.map((row) =>
    columns.map((column) => truncate(oneLine(column.value(row)), column.maxWidth)),
  );
  const widths = columns.map((column, index) =>
    Math.max(length(column.header), ...cells.map((line) => length(line[index] ?? ""))),
  );
  const render = (line: readonly string[]) =>
    line
      .map((cell, index) => pad(cell, widths[index] ?? 0))
      .join("  ")
      .trimEnd();
  const rule = widths.map((width) => "-".repeat(width)).join("  ");
  return [render(columns.map((column) => column.header)), rule, ...cells.map(render)].join("\n") + "\n";
}

/** The start of a text on one line, cut after a whole word when it is longer than `width`. */
export function firstWords(text: string, width: number): string {
  const line = oneLine(text);
  if ([...line].length <= width) return line;
  const cut = [...line].slice(0, width - 1).join("");
  const lastSpace = cut.lastIndexOf(" ");
  return `${lastSpace > width / 2 ? cut.slice(0, lastSpace) : cut}…`;
}
