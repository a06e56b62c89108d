// The tests `npm run test:unit` runs (vitest.unit.config.ts): no build, no browser, no server
// process. The list is explicit so that a test needing a server never slips in (unit-selection.test.ts
// checks their imports); a folder listed here holds only such tests.
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));

export const UNIT_TESTS = [
  "test/lib",
  "test/content",
  "test/docs",
  "test/bench",
  "test/cli/csv.test.ts",
  "test/cli/table.test.ts",
  "test/ops/history-checker.test.ts",
  "test/security/policy.test.ts",
  "test/security/proxy.test.ts",
  "test/seo/structured-data.test.ts",
  "test/styles/dev-css.test.ts",
  "test/styles/icons.test.ts",
  "test/scripts/budgets.test.ts",
  "test/scripts/executables.test.ts",
  "test/scripts/flakes.test.ts",
  "test/scripts/ports.test.ts",
  "test/scripts/test-times.test.ts",
  "test/scripts/unit-selection.test.ts",
];

const isTest = (name: string) => /\.test\.tsx?$/.test(name);

function testsUnder(path: string): string[] {
  if (!existsSync(join(root, path))) return [];
  if (!statSync(join(root, path)).isDirectory()) return isTest(path) ? [path] : [];
  return readdirSync(join(root, path))
    .sort()
    .flatMap((name) => testsUnder(`${path}/${name}`));
}

/** Every selected file; throws when an entry selects none (a renamed file would drop silently). */
export function unitTestFiles(): string[] {
  return UNIT_TESTS.flatMap((entry) => {
    const files = testsUnder(entry);
    if (files.length === 0) throw new Error(`npm run test:unit: ${entry} selects no test file`);
    return files;
  });
}
