// The order `npm test` starts its files in (vitest.config.ts). Files run four at a time on two busy
// cores, so a long file started last makes a tail where the others have finished: the files that
// take longest start first. Vitest orders by the previous run's times when it has them, and on a
// fresh clone (CI) by file size, which put a 53-line file of three minutes near the end (issue 39).
// The list is the head of the times `npm test` prints at its end; update it when that changes.
import { BaseSequencer } from "vitest/node";

/** The longest files, longest first (wall time with files side by side, 2026-11-29). */
export const LONGEST_FIRST = [
  "test/e2e/engines-visitor.test.ts",
  "test/e2e/engines-lone-words.test.ts",
  "test/cli/leads.test.ts",
  "test/e2e/accessibility.test.ts",
  "test/e2e/navigation.test.ts",
  "test/e2e/engines-layout.test.ts",
  "test/ops/history.test.ts",
  "test/e2e/layout.test.ts",
  "test/e2e/contact-js.test.ts",
  "test/e2e/engines-press-through-hydration.test.ts",
];

/** `files` with those of `longestFirst` at the front, in its order; the others keep theirs. */
export function longestFirst(files, relative, longestFirst = LONGEST_FIRST) {
  const rank = (file) => {
    const index = longestFirst.indexOf(relative(file));
    return index === -1 ? longestFirst.length : index;
  };
  return files
    .map((file, position) => ({ file, position, rank: rank(file) }))
    .sort((a, b) => a.rank - b.rank || a.position - b.position)
    .map(({ file }) => file);
}

export class LongestFirstSequencer extends BaseSequencer {
  async sort(files) {
    const root = this.ctx.config.root.endsWith("/") ? this.ctx.config.root : `${this.ctx.config.root}/`;
    const relative = (spec) =>
      spec.moduleId.startsWith(root) ? spec.moduleId.slice(root.length) : spec.moduleId;
    return longestFirst(await super.sort(files), relative);
  }
}
