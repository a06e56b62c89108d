import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";

import { describe, expect, it } from "vitest";

import { envSchema, parseEnv } from "~/lib/env.server";

import { BUDGETS } from "../../bench/lib/report.mjs";
import { root } from "../support/server-process.mjs";

/**
 * Docs that say what is (issue 53). A decision record is dated, so only its lines above the title
 * (naming what replaced it) are read. Paths made at run time (git-ignored) are not looked for.
 */

const SKIPPED = new Set([
  "node_modules",
  ".git",
  ".builds",
  "build",
  ".data",
  "test-results",
  "coverage",
  ".cache",
]);
const RUNTIME =
  /^(?:\.data|\.builds|build|public\/build|test-results|coverage|node_modules|bench\/results\/[^/]+\.json)(?:\/|$)/;
const FILE_EXTENSION = /\.(?:[cm]?[jt]sx?|md|json|css|sh|ya?ml)$/;
const TOP_FOLDERS = /^(?:app|server|cli|test|docs|bench|scripts|mocks|public|\.ci)\//;
/** Words in capitals that are no variable: HTTP methods, a shell's own variables. */
const NOT_VARIABLES = new Set(["GET", "HEAD", "POST", "PUT", "DELETE", "PATH", "HOME"]);
/** First segments of absolute paths on the machine, not routes of the site. */
const SYSTEM_FOLDERS = new Set(["etc", "opt", "usr", "proc", "tmp", "dev", "var", "root", "home"]);

function filesUnder(dir: string): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    if (SKIPPED.has(name)) return [];
    const path = dir === "." ? name : `${dir}/${name}`;
    return statSync(join(root, path)).isDirectory() ? [`${path}/`, ...filesUnder(path)] : [path];
  });
}

export interface Repository {
  /** Every file (and every folder, with a trailing slash) relative to the root. */
  paths: string[];
  scripts: Set<string>;
  /** Every word in capitals that the code or the configuration holds. */
  names: Set<string>;
  /** The first segment of every path the site answers (`privacy`, `healthz`, `metrics`, …). */
  routes: Set<string>;
  budgets: Set<string>;
  budgetValues: number[];
}

function readRepository(): Repository {
  const paths = filesUnder(".");
  const read = (path: string) => readFileSync(join(root, path), "utf8");
  // This file is left out: its positive control names what must not exist.
  const code = paths.filter(
    (path) =>
      (/^(?:app|server|cli|scripts|bench|test|mocks)\/.*\.(?:[cm]?[jt]sx?)$/.test(path) ||
        path === ".ci/run") &&
      path !== "test/docs/references.test.ts",
  );
  // What the programs read: not .env.example, which is checked against them (below).
  const sources = [...code, "package.json"].map(read).join("\n");
  const routeFiles = readdirSync(join(root, "app/routes")).map((name) =>
    name.replace(/\.tsx?$/, "").replaceAll("[.]", "."),
  );
  const serverPaths = paths
    .filter((path) => /^server\/.*\.ts$/.test(path))
    .flatMap((path) => [...read(path).matchAll(/["'`]\/([\w.-]+)/g)].map((m) => m[1]!));
  const budgets = BUDGETS as Record<string, number>;
  return {
    paths,
    scripts: new Set(Object.keys((JSON.parse(read("package.json")) as { scripts: object }).scripts)),
    names: new Set(sources.match(/\b[A-Z][A-Z0-9_]+\b/g)),
    // `_root`: Remix's single-fetch data of the root route (`/_root.data`).
    routes: new Set([...routeFiles, ...serverPaths, "_root"]),
    budgets: new Set(Object.keys(budgets)),
    budgetValues: Object.values(budgets),
  };
}

export function currentText(path: string, text: string): string {
  if (!path.startsWith("docs/decisions/")) return text;
  const title = text.search(/^# /m);
  return title < 0 ? "" : text.slice(0, title);
}

const codeBlocks = (text: string) => [...text.matchAll(/^```[^\n]*\n([\s\S]*?)^```/gm)].map((m) => m[1]!);
const withoutCodeBlocks = (text: string) => text.replace(/^```[^\n]*\n[\s\S]*?^```/gm, "");
const codeSpans = (text: string) =>
  [...withoutCodeBlocks(text).matchAll(/(`+)(?!`)([\s\S]*?[^`])\1(?!`)/g)].map((m) => m[2]!.trim());

function fileExists(repo: Repository, docFolder: string, name: string): boolean {
  const path = name.replace(/#.*$/, "");
  if (RUNTIME.test(path)) return true;
  const folder = path.endsWith("/");
  const fromDoc = relative(root, join(root, docFolder, path)) + (folder ? "/" : "");
  if (repo.paths.includes(path) || repo.paths.includes(fromDoc)) return true;
  // A name given within its folder (`paint-first.inline.ts`, `contact/`).
  return repo.paths.some((known) => known.endsWith(`/${path}`));
}

function isFileName(span: string): boolean {
  if (/[\s*<>…{}$~:=(),|\\[\]%'"]/.test(span) || span.startsWith("@") || span.startsWith("/")) return false;
  if (/^[\w-]+\/[\w./-]*$/.test(span) && existsSync(join(root, "node_modules", span.split("/")[0]!)))
    return TOP_FOLDERS.test(span); // a package's module (`zod/mini`), unless it is one of ours
  return FILE_EXTENSION.test(span) || span.endsWith("/") || span.startsWith(".") || TOP_FOLDERS.test(span);
}

function routeExists(repo: Repository, span: string): boolean | undefined {
  const match = /^\/([\w.-]*)(\/[^\s]*)?(?:[?#]\S*)?$/.exec(span);
  if (!match || span.includes("%")) return undefined;
  const [, first = "", rest] = match;
  if (SYSTEM_FOLDERS.has(first)) return undefined;
  if (first === "") return rest === undefined;
  if (first === "build") return true; // the fingerprinted files of the build
  return repo.routes.has(first) || repo.routes.has(first.replace(/\.data$/, ""));
}

export function missingReferences(repo: Repository, path: string, fullText: string): string[] {
  const text = currentText(path, fullText);
  const docFolder = dirname(path);
  const problems: string[] = [];
  const problem = (kind: string, name: string) => problems.push(`${path}: ${kind} ${name} does not exist`);

  for (const m of text.matchAll(/\bnpm run (?:--silent )?([\w:-]+)/g))
    if (!repo.scripts.has(m[1]!)) problem("npm script", m[1]!);
  for (const block of codeBlocks(text))
    for (const m of block.matchAll(/(?:^|\s)([A-Z][A-Z0-9_]+)=/gm))
      if (!repo.names.has(m[1]!)) problem("variable", m[1]!);

  for (const span of codeSpans(text)) {
    const assignment = /^([A-Z][A-Z0-9_]+)=/.exec(span)?.[1];
    const variable = /^[A-Z][A-Z0-9_]{2,}$/.test(span) ? span : assignment;
    if (variable && !NOT_VARIABLES.has(variable) && !repo.names.has(variable)) problem("variable", variable);
    const budget = /^BUDGETS\.(\w+)$/.exec(span)?.[1];
    if (budget && !repo.budgets.has(budget)) problem("budget", `BUDGETS.${budget}`);
    const route = routeExists(repo, span);
    if (route === false) problem("route", span);
    if (isFileName(span) && !fileExists(repo, docFolder, span)) problem("file", span);
  }
  return problems;
}

/** The limits performance.md's budget table states, as numbers (KB written as 1000 bytes). */
export function statedLimits(performanceDoc: string): number[] {
  const section = performanceDoc.split(/^## /m).find((part) => part.startsWith("Budgets")) ?? "";
  const rows = section.split("\n").filter((line) => /^\|/.test(line) && !/^\|\s*-/.test(line));
  return rows.slice(1).flatMap((row) => {
    const limit = row.split("|").at(-2) ?? "";
    return [...limit.matchAll(/(\d+(?:\.\d+)?)\s*(KB)?/g)].map((m) => Number(m[1]) * (m[2] ? 1000 : 1));
  });
}

const documents = ["README.md", ...filesUnder("docs").filter((path) => path.endsWith(".md"))];

describe("docs name only what exists", () => {
  const repo = readRepository();

  it("reads every document and finds names to check", () => {
    expect(documents.length).toBeGreaterThan(15);
    const spans = documents.flatMap((path) =>
      codeSpans(currentText(path, readFileSync(join(root, path), "utf8"))),
    );
    expect(spans.length).toBeGreaterThan(200);
  });

  it("every file, route, npm script, variable and budget a document names exists", () => {
    const problems = documents.flatMap((path) =>
      missingReferences(repo, path, readFileSync(join(root, path), "utf8")),
    );
    expect(problems).toEqual([]);
  });

  it("production.md's table of variables is the env schema's, with its defaults", () => {
    const text = readFileSync(join(root, "docs/production.md"), "utf8");
    const table = /<!-- env:start -->([\s\S]*?)<!-- env:end -->/.exec(text)?.[1] ?? "";
    const rows = [...table.matchAll(/^\|\s*`([A-Z][A-Z0-9_]*)`\s*\|\s*(.*?)\s*\|$/gm)].map((m) => [
      m[1]!,
      m[2]!,
    ]);
    const defaults = parseEnv({}) as Record<string, unknown>;
    const expected = Object.keys(envSchema.shape).map((name) => {
      const value = defaults[name];
      return [name, value === undefined ? "unset" : `\`${String(value)}\``];
    });
    expect(rows, "the rows to write between <!-- env:start --> and <!-- env:end -->").toEqual(expected);
  });

  it(".env.example lists only variables the code reads", () => {
    const listed = [
      ...readFileSync(join(root, ".env.example"), "utf8").matchAll(/^([A-Z][A-Z0-9_]*)=/gm),
    ].map((m) => m[1]!);
    expect(listed.length).toBeGreaterThan(40);
    expect(listed.filter((name) => !repo.names.has(name))).toEqual([]);
  });

  it("every limit of performance.md's budget table is one the benchmark holds", () => {
    const limits = statedLimits(readFileSync(join(root, "docs/performance.md"), "utf8"));
    expect(limits.length).toBeGreaterThan(15);
    expect(limits.filter((limit) => !repo.budgetValues.includes(limit))).toEqual([]);
  });

  it("is a check that catches a missing file, route, script, variable and budget (positive control)", () => {
    const fabricated = [
      "Edit `app/lib/nowhere.server.ts` or `server/front-door.ts`, then `npm run nowhere` and `npm run budgets`.",
      "Ask `/nowhere` or `/privacy`; set `NOWHERE_TIMEOUT_MS` or `PORT`; the budget `BUDGETS.nowhere`.",
      "```sh\nNOWHERE_SEED=1 npm test\n```",
    ].join("\n");
    expect(missingReferences(repo, "docs/fabricated.md", fabricated)).toEqual([
      "docs/fabricated.md: npm script nowhere does not exist",
      "docs/fabricated.md: variable NOWHERE_SEED does not exist",
      "docs/fabricated.md: file app/lib/nowhere.server.ts does not exist",
      "docs/fabricated.md: route /nowhere does not exist",
      "docs/fabricated.md: variable NOWHERE_TIMEOUT_MS does not exist",
      "docs/fabricated.md: budget BUDGETS.nowhere does not exist",
    ]);
    const table =
      "## Budgets\n\n| Budget | Limit |\n| --- | --- |\n| GET / ÷ /healthz | ≥ 0.85 |\n| JS | ≤ 110 KB |\n";
    expect(statedLimits(table)).toEqual([0.85, 110_000]);
    expect(repo.budgetValues).not.toContain(0.85);
  });

  it("reads a decision record's lines above its title only", () => {
    const record = "Replaced by `npm run nowhere`.\n\n# Old\n\nUses `npm run gone`.\n";
    expect(missingReferences(repo, "docs/decisions/old-record.md", record)).toEqual([
      "docs/decisions/old-record.md: npm script nowhere does not exist",
    ]);
  });
});
