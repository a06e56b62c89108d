#!/usr/bin/env node
// Prints a bench result (default bench/results/latest.json) as a Markdown table for the README /
// docs/performance.md: budgets first, then observations. Usage: node bench/markdown.mjs [file]
import { readFileSync } from "node:fs";

import { root } from "./lib/servers.mjs";

const file = process.argv[2] ?? `${root}bench/results/latest.json`;
const result = JSON.parse(readFileSync(file, "utf8"));
const cell = (text) => String(text ?? "").replaceAll("|", "\\|");
const { machine } = result;

console.log(
  `Run of ${result.date}: ${machine.cpus} cores (${machine.cpuModel}), ${machine.memoryGiB} GiB, ${machine.node}, ` +
    `${machine.chromium}; load average ${machine.loadAverage.join(" ")} at start, ${machine.loadAverageAtEnd.join(" ")} at end ` +
    `(${machine.note}); ${Math.round(result.durationMs / 1000)} s.\n`,
);
for (const kind of ["budget", "observation"]) {
  const rows = result.rows.filter((row) => row.kind === kind);
  console.log(
    kind === "budget"
      ? "**Budgets** (the run fails when one is missed)\n"
      : "\n**Observations** (reported, not gated)\n",
  );
  console.log(
    kind === "budget"
      ? "| Section | Metric | Value | Budget | Status |\n|---|---|---|---|---|"
      : "| Section | Metric | Value |\n|---|---|---|",
  );
  for (const row of rows) {
    const cells = [row.section, row.metric, row.display];
    if (kind === "budget") cells.push(row.budget, row.pass ? "met" : "**MISSED**");
    console.log(`| ${cells.map(cell).join(" | ")} |`);
  }
}
