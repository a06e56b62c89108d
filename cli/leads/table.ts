/**
 * A plain-text table for a terminal. Every value comes from a visitor, so control and bidi
 * characters (which can move the cursor or make text read backwards) are shown as escapes. Widths
 * and cuts go by grapheme clusters, so an emoji or an accented letter is never cut in half.
 */

export interface Column<Row> {
  header: string;
  /** The most terminal columns a cell takes; longer values end with "…". */
  maxWidth: number;
  /** "words": cut after a whole word when the cut would otherwise fall in the second half. */
  cut?: "anywhere" | "words";
  /** Narrowed down to this to fit a terminal; unset: never narrowed. */
  minWidth?: number;
  /** Lowest rank (default 0) gives way first, down to its minimums, before the next rank. */
  givesWay?: number;
  /** Never cut, whatever its length and the terminal's (how to reach a person: e-mail, phone). */
  whole?: boolean;
  value: (row: Row) => string;
}

const GAP = 2;

const lineWidth = (widths: readonly number[]) =>
  widths.reduce((sum, w) => sum + w, 0) + GAP * Math.max(0, widths.length - 1);

/** Column widths for a terminal of `width`: rank by rank, the widest of a rank gives way first. */
export function fitColumns<Row>(
  columns: readonly Column<Row>[],
  natural: readonly number[],
  width: number,
): number[] {
  const widths = [...natural];
  const narrowable = columns.flatMap(({ whole, minWidth, givesWay = 0 }, index) =>
    whole || minWidth === undefined ? [] : [{ index, minWidth, givesWay }],
  );
  const current = (index: number) => widths[index] ?? 0;
  while (lineWidth(widths) > width) {
    // Of the columns still wider than their minimum: the lowest rank, its widest, its leftmost.
    const next = narrowable
      .filter(({ index, minWidth }) => current(index) > minWidth)
      .sort((a, b) => a.givesWay - b.givesWay || current(b.index) - current(a.index))[0];
    if (!next) break;
    widths[next.index] = current(next.index) - 1;
  }
  return widths;
}

/** Controls, separators and bidi characters; and the backslash, so no visitor can fake an escape. */
// eslint-disable-next-line no-control-regex
const ESCAPED = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\\]/gu;

const NAMED: Record<string, string> = { "\t": "\\t", "\n": "\\n", "\r": "\\r", "\\": "\\\\" };

const escapeOne = (char: string) =>
  NAMED[char] ?? `\\u${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;

export function escapeControls(value: string): string {
  return value.replace(ESCAPED, escapeOne);
}

// East Asian Wide and Fullwidth blocks (Hangul, CJK, kana, fullwidth forms…): two columns.
const WIDE =
  /^[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\ua960-\ua97f\uac00-\ud7a3\uf900-\ufaff\ufe10-\ufe19\ufe30-\ufe6f\uff00-\uff60\uffe0-\uffe6\u{16fe0}-\u{18aff}\u{1b000}-\u{1b2ff}\u{1f200}-\u{1f2ff}\u{20000}-\u{3fffd}]/u;
// An emoji drawn as a picture (by default or with VS16), a flag: two columns.
const EMOJI = /\p{Emoji_Presentation}|\ufe0f|\p{Regional_Indicator}/u;
const INVISIBLE = /^\p{Default_Ignorable_Code_Point}+$/u;

/** The columns a terminal gives one grapheme cluster. */
export function clusterWidth(cluster: string): number {
  if (INVISIBLE.test(cluster)) return 0;
  return EMOJI.test(cluster) || WIDE.test(cluster) ? 2 : 1;
}

const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/** One thing the terminal shows: a grapheme cluster, or the escape of a control character. */
interface Piece {
  text: string;
  width: number;
}

/** The value as pieces: each cluster whole, each escape whole (an escape is never cut either). */
const pieces = (value: string): Piece[] =>
  Array.from(segmenter.segment(value), ({ segment }) => {
    const plain = segment.replace(ESCAPED, "");
    const text = escapeControls(segment);
    // A control character is a cluster of its own (CR LF is one); a backslash may carry accents.
    return { text, width: text.length - plain.length + (plain ? clusterWidth(plain) : 0) };
  });

const widthOf = (list: readonly Piece[]) => list.reduce((sum, piece) => sum + piece.width, 0);
const textOf = (list: readonly Piece[]) => list.map((piece) => piece.text).join("");

export function displayWidth(value: string): number {
  return widthOf(pieces(value));
}

function fitting(list: readonly Piece[], width: number): Piece[] {
  const kept: Piece[] = [];
  let used = 0;
  for (const piece of list) {
    if (used + piece.width > width) break;
    kept.push(piece);
    used += piece.width;
  }
  return kept;
}

/** The value as the table shows it: escaped, and cut with "…" when wider than `width`. */
export function fitCell(value: string, width: number, cut: Column<unknown>["cut"] = "anywhere"): Piece {
  const all = pieces(value);
  const total = widthOf(all);
  if (total <= width) return { text: textOf(all), width: total };
  let kept = fitting(all, Math.max(0, width - 1));
  if (cut === "words") {
    const lastSpace = kept.map((piece) => piece.text).lastIndexOf(" ");
    if (lastSpace >= 0 && widthOf(kept.slice(0, lastSpace)) > width / 2) kept = kept.slice(0, lastSpace);
  }
  return { text: `${textOf(kept)}…`, width: widthOf(kept) + 1 };
}

/** A row's cell in `column`: at most `width` wide, unless the column is never cut. */
const cellOf = <Row>(column: Column<Row>, row: Row, width: number) =>
  fitCell(column.value(row), column.whole ? Number.POSITIVE_INFINITY : width, column.cut);

/** One record per row (as psql's expanded display): for a terminal too narrow for the table. */
export function formatRecords<Row>(
  rows: readonly Row[],
  columns: readonly Column<Row>[],
  terminalWidth: number,
): string {
  const label = Math.max(...columns.map((column) => displayWidth(column.header)));
  const room = Math.max(8, terminalWidth - label - 3);
  const records = rows.flatMap((row, index) => [
    `-[ RECORD ${index + 1} ]`.padEnd(Math.min(terminalWidth, label + 3 + room), "-"),
    ...columns.map((column) => {
      // A column the table never narrows (no minimum) is not cut here either.
      const cell = cellOf(column, row, column.minWidth === undefined ? Number.POSITIVE_INFINITY : room);
      return `${column.header.padEnd(label)} | ${cell.text}`.trimEnd();
    }),
  ]);
  return records.join("\n") + "\n";
}

/** The rows as a table fitting `terminalWidth`, or one record per row if even the minimums do not. */
export function formatTable<Row>(
  rows: readonly Row[],
  columns: readonly Column<Row>[],
  terminalWidth = Number.POSITIVE_INFINITY,
): string {
  const natural = columns.map((column) =>
    Math.max(displayWidth(column.header), ...rows.map((row) => cellOf(column, row, column.maxWidth).width)),
  );
  const limits = fitColumns(columns, natural, terminalWidth);
  if (rows.length > 0 && lineWidth(limits) > terminalWidth)
    return formatRecords(rows, columns, terminalWidth);
  const headers = columns.map((column, index) => fitCell(column.header, limits[index] ?? column.maxWidth));
  const cells = rows.map((row) =>
    columns.map((column, index) => cellOf(column, row, limits[index] ?? column.maxWidth)),
  );
  const widths = columns.map((_, index) =>
    Math.max(...[headers, ...cells].map((line) => line[index]?.width ?? 0)),
  );
  const rule = widths.map((width) => ({ text: "-".repeat(width), width }));
  const render = (line: readonly Piece[]) =>
    line
      .map((cell, index) => cell.text + " ".repeat((widths[index] ?? 0) - cell.width))
      .join(" ".repeat(GAP))
      .trimEnd();
  return [headers, rule, ...cells].map(render).join("\n") + "\n";
}
