import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

import { describe, expect, it } from "vitest";

import { parseEnv } from "~/lib/env.server";

import { root } from "../support/server-process.mjs";

/** A repository that stands alone (issue 18). */

const markdownFiles = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? markdownFiles(path) : path.endsWith(".md") ? [path] : [];
  });

const documents = [join(root, "README.md"), ...markdownFiles(join(root, "docs"))];

/** Link targets in a Markdown text: [text](target) and <a href="target">, outside code blocks. */
export function linkTargets(markdown: string): string[] {
  const prose = markdown.replace(/```[\s\S]*?```/g, "").replace(/`[^`\n]*`/g, "");
  const inline = [...prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]!);
  const html = [...prose.matchAll(/href="([^"]+)"/g)].map((m) => m[1]!);
  return [...inline, ...html];
}

/** Relative paths written as code (`../x/y.md`) that climb out of the document's folder. */
export function climbingPaths(markdown: string): string[] {
  return [...markdown.matchAll(/(?:^|[\s`(])((?:\.\.\/)+[\w./-]+)/g)].map((m) => m[1]!);
}

function problemsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const name = relative(root, file);
  const problems: string[] = [];
  for (const target of linkTargets(text)) {
    if (/^(https?:|mailto:|#)/.test(target)) continue;
    if (/^file:|^\//.test(target)) {
      problems.push(`${name}: ${target} is an absolute path, not a link within the repository`);
      continue;
    }
    const path = resolve(dirname(file), decodeURI(target.split("#")[0]!));
    if (relative(root, path).startsWith(".."))
      problems.push(`${name}: ${target} points outside the repository`);
    else if (!existsSync(path)) problems.push(`${name}: ${target} does not exist`);
  }
  for (const path of climbingPaths(text)) {
    if (relative(root, resolve(dirname(file), path)).startsWith("..")) {
      problems.push(`${name}: ${path} points outside the repository`);
    }
  }
  // The specification's files stay outside; the project says its requirements in its own words.
  if (/\b(site-spec|decisions)\.md\b/.test(text))
    problems.push(`${name}: names a file outside the repository`);
  return problems;
}

describe("links in README.md and docs/", () => {
  it("finds documents and links to check", () => {
    expect(documents.length).toBeGreaterThan(15);
    expect(documents.flatMap((file) => linkTargets(readFileSync(file, "utf8"))).length).toBeGreaterThan(30);
  });

  it("every relative link resolves to a file of the repository; none points outside it", () => {
    expect(documents.flatMap(problemsOf)).toEqual([]);
  });

  it('no text pasted from a JavaScript string: no `+"` or `"+` around inline code (issue 24)', () => {
    const pasted = documents.filter((file) => /`\+"|"\+`/.test(readFileSync(file, "utf8")));
    expect(pasted.map((file) => relative(root, file))).toEqual([]);
  });

  it("is a check that fails on a broken link and on a path outside the repository", () => {
    const sample =
      "See [spec](../shared/spec/site-spec.md), [gone](docs/nope.md) and `../shared/spec/decisions.md`.";
    expect(linkTargets(sample)).toEqual(["../shared/spec/site-spec.md", "docs/nope.md"]);
    expect(climbingPaths(sample)).toContain("../shared/spec/decisions.md");
  });
});

describe(".env.example", () => {
  const example = readFileSync(join(root, ".env.example"), "utf8");
  const listed = new Map(
    example
      .split("\n")
      .filter((line) => /^[A-Z][A-Z0-9_]*=/.test(line))
      .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)] as const),
  );

  it("lists every server variable with the default the server uses", () => {
    const defaults = parseEnv({}) as Record<string, unknown>;
    for (const [name, value] of Object.entries(defaults)) {
      expect(listed.has(name), `${name} is missing`).toBe(true);
      expect(listed.get(name), name).toBe(value === undefined ? "" : String(value));
    }
  });

  it("lists every variable the project's code reads", () => {
    const walk = (dir: string): string[] => {
      const path = join(root, dir);
      if (!existsSync(path)) return [];
      return readdirSync(path).flatMap((name) => {
        const child = join(dir, name);
        if (statSync(join(root, child)).isDirectory()) return name === "results" ? [] : walk(child);
        return /\.(m?[jt]sx?)$/.test(name) ? [child] : [];
      });
    };
    const sources = ["app", "server", "scripts", "bench", "cli", "mocks", "test"].flatMap(walk);
    const read = new Set(
      sources.flatMap((file) =>
        [
          ...readFileSync(join(root, file), "utf8").matchAll(/(?:process\.env|\benv)\.([A-Z][A-Z0-9_]+)/g),
        ].map((m) => m[1]!),
      ),
    );
    read.delete("PATH");
    read.delete("HOME");
    read.delete("VITEST_POOL_ID"); // set by vitest in each of its workers, never by a person
    expect([...read].filter((name) => !listed.has(name)).sort()).toEqual([]);
  });
});

/**
 * Citations in every form (issue 24): "decision 024", "decisions 021, 022 and 025", a path such as
 * `docs/decisions/004-….md` or the bare file name.
 */
export function decisionCitations(text: string): { numbers: string[]; files: string[] } {
  const numbers = [
    ...text.matchAll(/\bdecisions?\s+(\d{3}(?:(?:\s*,\s*|\s+and\s+|\s*\/\s*)\d{3})*)/gi),
  ].flatMap((m) => m[1]!.match(/\d{3}/g)!);
  const files = [...text.matchAll(/(?<![\w-])(\d{3}-[a-z0-9-]+\.md)\b/g)].map((m) => m[1]!);
  return { numbers, files };
}

// Built, so that this file does not cite it itself.
const OLD_NPMRC_CITATION = ["006", "ignore-install-scripts.md"].join("-");

describe("decision records cited from code, config and docs", () => {
  const records = readdirSync(join(root, "docs/decisions")).filter((name) => /^\d{3}-.+\.md$/.test(name));
  const numbers = new Set(records.map((name) => name.slice(0, 3)));

  const TEXT = /\.(m?[jt]sx?|md|css|json)$/;
  const walk = (dir: string): string[] =>
    existsSync(join(root, dir))
      ? readdirSync(join(root, dir)).flatMap((name) => {
          const child = join(dir, name);
          if (statSync(join(root, child)).isDirectory()) return name === "results" ? [] : walk(child);
          return TEXT.test(name) ? [child] : [];
        })
      : [];
  const sources = [
    ...["app", "server", "scripts", "bench", "cli", "mocks", "test", "docs"].flatMap(walk),
    ...[
      "README.md",
      ".npmrc",
      ".env.example",
      "package.json",
      "eslint.config.js",
      "remix.config.js",
      "postcss.config.js",
      "vitest.config.ts",
      "vitest.unit.config.ts",
      ".ci/run",
    ].filter((file) => existsSync(join(root, file))),
  ];

  it("finds citations to check", () => {
    const all = sources.map((file) => decisionCitations(readFileSync(join(root, file), "utf8")));
    expect(all.flatMap((c) => c.numbers).length).toBeGreaterThan(50);
    expect(all.flatMap((c) => c.files).length).toBeGreaterThan(20);
  });

  it("every cited number and record file exists in docs/decisions/", () => {
    const problems = sources.flatMap((file) => {
      const cited = decisionCitations(readFileSync(join(root, file), "utf8"));
      return [
        ...cited.numbers.filter((n) => !numbers.has(n)).map((n) => `${file}: decision ${n} does not exist`),
        ...cited.files.filter((f) => !records.includes(f)).map((f) => `${file}: ${f} does not exist`),
      ];
    });
    expect(problems).toEqual([]);
  });

  it("is a check that reads every form and would see the old .npmrc citation", () => {
    const sample = [
      `See docs/decisions/${OLD_NPMRC_CITATION},`,
      "decision " + "024, decisions " + "021, 022 and " + "025, Decision " + "030/" + "031.",
    ].join(" ");
    expect(decisionCitations(sample)).toEqual({
      numbers: ["024", "021", "022", "025", "030", "031"],
      files: [OLD_NPMRC_CITATION],
    });
    expect(records).not.toContain(OLD_NPMRC_CITATION);
  });
});

/** Issue 34: the map's line for `top/` and the indented lines that continue it. */
export function mappedFolders(readme: string, top: string): string[] {
  const lines = readme.split("\n");
  const start = lines.findIndex((line) => line.startsWith(`${top}/ `));
  if (start < 0) return [];
  const entry = [lines[start]!];
  for (const line of lines.slice(start + 1)) {
    if (!/^\s+\S/.test(line)) break;
    entry.push(line);
  }
  const text = entry.join("\n").slice(top.length + 1);
  return [...new Set([...text.matchAll(/(?<![\w./-])([a-z][\w-]*)\/(?![\w])/g)].map((m) => m[1]!))];
}

describe("README", () => {
  const readme = readFileSync(join(root, "README.md"), "utf8");

  it("its map of the code names every folder of test/", () => {
    const folders = readdirSync(join(root, "test")).filter((name) =>
      statSync(join(root, "test", name)).isDirectory(),
    );
    const mapped = mappedFolders(readme, "test");
    expect(folders.filter((name) => !mapped.includes(name)).sort()).toEqual([]);
    expect(mapped.filter((name) => !folders.includes(name)).sort(), "named but gone").toEqual([]);
  });

  it("is a check that sees a folder the map leaves out", () => {
    const map =
      "```\ntest/                   lib/, e2e/,\n                        support/ holds helpers\nbench/   x\n```";
    expect(mappedFolders(map, "test")).toEqual(["lib", "e2e", "support"]);
  });

  it("names the Node version .nvmrc pins, which package.json's engines accepts", () => {
    const pinned = readFileSync(join(root, ".nvmrc"), "utf8").trim();
    expect(pinned).toMatch(/^\d+\.\d+\.\d+$/);
    const major = pinned.split(".")[0]!;
    expect(readme).toContain(`Node ${major} LTS`);
    expect(readme).toContain(pinned);
    const engines = (
      JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { engines: { node: string } }
    ).engines.node;
    expect(engines).toContain(`^${major}.`);
    expect(
      process.version.startsWith(`v${major}.`) || process.version.startsWith("v22."),
      process.version,
    ).toBe(true);
  });
});
