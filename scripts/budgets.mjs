#!/usr/bin/env node
// `npm run budgets`: the size budgets the project holds itself to, measured and printed; exit 1
// when one is over its ratchet. CI runs it (.ci/run). Code lines of the lead store are counted
// without comments and blank lines, by TypeScript's own scanner (a `//` inside a string is code, a
// `/* */` across lines is not); product code counts non-blank lines, CSS included; bench/, scripts/
// and test/ count every line; docs count words (runs of non-space characters, as `wc -w` does).
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

import ts from "typescript";

const root = fileURLToPath(new URL("..", import.meta.url));

const CODE = /\.(ts|tsx|mjs|js)$/;
const PRODUCT = /\.(ts|tsx|mjs|js|css)$/;
const ANY = /./;
const MARKDOWN = /\.md$/;
const PRODUCT_FOLDERS = ["app", "server", "cli"];

/**
 * Each budget: what it measures, where, the most it may be now (a ratchet: lowered as the measure
 * shrinks, never raised) and the target it is to reach, when that is lower. Ratchets set
 * 2026-12-02 at that day's measure, lowered since as the measures shrank.
 */
export const BUDGETS = [
  {
    name: "lead store code (app/lib/leads/)",
    folders: ["app/lib/leads"],
    unit: "code lines",
    max: 1_698,
    target: 1_700,
  },
  {
    name: "product code (app/, server/, cli/)",
    folders: PRODUCT_FOLDERS,
    unit: "non-blank lines",
    max: 10_491,
    target: 10_500,
  },
  {
    name: "largest product file",
    folders: PRODUCT_FOLDERS,
    unit: "non-blank lines",
    largest: true,
    max: 400,
    target: 400,
  },
  {
    name: "docs (README.md, docs/)",
    folders: ["README.md", "docs"],
    unit: "words",
    max: 22_822,
    target: 25_000,
  },
  { name: "README.md", folders: ["README.md"], unit: "lines", max: 120 },
  {
    name: "tooling (bench/, scripts/)",
    folders: ["bench", "scripts"],
    unit: "lines",
    max: 3_452,
    target: 3_500,
  },
  { name: "tests (test/)", folders: ["test"], unit: "lines", max: 26_496, target: 20_000 },
];

/** The lines of `text` that hold code: every line a token of the parsed file touches (comments are no tokens). */
export function codeLines(text, fileName = "file.ts") {
  // By its own extension: a `.ts` file read as TSX takes `<T>(…)` for JSX text.
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const lines = new Set();
  const lineOf = (position) => source.getLineAndCharacterOfPosition(position).line;
  const visit = (node) => {
    // JSDoc comments come back as children of the node they document: comments all the same.
    if (node.kind >= ts.SyntaxKind.FirstJSDocNode && node.kind <= ts.SyntaxKind.LastJSDocNode) return;
    const children = node.getChildren(source);
    if (children.length > 0) return children.forEach(visit);
    if (node.kind === ts.SyntaxKind.EndOfFileToken || node.getWidth(source) === 0) return;
    if (node.kind === ts.SyntaxKind.JsxText && node.getText(source).trim() === "") return;
    for (let line = lineOf(node.getStart(source)); line <= lineOf(node.getEnd()); line++) lines.add(line);
  };
  visit(source);
  return lines.size;
}

/** Each unit: which files it reads and how it counts one. */
const UNITS = {
  "code lines": { files: CODE, count: (text, file) => codeLines(text, file) },
  "non-blank lines": {
    files: PRODUCT,
    count: (text) => text.split("\n").filter((line) => line.trim()).length,
  },
  lines: { files: ANY, count: (text) => text.split("\n").length - (text.endsWith("\n") ? 1 : 0) },
  words: { files: MARKDOWN, count: (text) => text.split(/\s+/).filter(Boolean).length },
};

/** Files under `entry` (a folder or one file) whose names match; outputs and dependencies skipped. */
function filesUnder(entry, pattern) {
  if (!statSync(entry).isDirectory()) return pattern.test(entry) ? [entry] : [];
  return readdirSync(entry).flatMap((name) =>
    ["node_modules", "results", ".cache"].includes(name) ? [] : filesUnder(path.join(entry, name), pattern),
  );
}

/** Every file a budget reads, with its measure. */
export function measureFiles(budget, base = root) {
  const unit = UNITS[budget.unit];
  return budget.folders
    .flatMap((folder) => filesUnder(path.join(base, folder), unit.files))
    .map((file) => ({
      file: path.relative(base, file),
      value: unit.count(readFileSync(file, "utf8"), file),
    }));
}

/** A budget's measure: the sum over its files, or its largest file's. */
export function measure(budget, base = root) {
  const values = measureFiles(budget, base).map((entry) => entry.value);
  return budget.largest ? Math.max(0, ...values) : values.reduce((sum, value) => sum + value, 0);
}

/** One line of the report, e.g. "ok   docs (README.md, docs/): 24100 words (at most 25000)". */
export function report(budget, value, largestFile) {
  const ok = value <= budget.max;
  const toGo =
    budget.target && value > budget.target ? `; target ${budget.target}, ${value - budget.target} to go` : "";
  const which = largestFile ? ` (${largestFile})` : "";
  return `${ok ? "ok  " : "OVER"} ${budget.name}: ${value} ${budget.unit}${which} (at most ${budget.max}${toGo})`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  let over = false;
  for (const budget of BUDGETS) {
    const value = measure(budget);
    const largest = budget.largest
      ? measureFiles(budget).find((entry) => entry.value === value)?.file
      : undefined;
    over ||= value > budget.max;
    console.log(report(budget, value, largest));
  }
  process.exit(over ? 1 : 0);
}
