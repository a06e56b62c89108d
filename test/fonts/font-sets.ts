/**
 * The font sets the browser tests run with (decision 039): fontconfig files that list the only font
 * folders a browser may use, so that a result never depends on what else a machine has installed.
 * `.ci/run` installs both sets' packages; vitest.config.ts makes `liberation` every browser's default.
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

export interface FontSet {
  readonly name: string;
  /** The fontconfig file (FONTCONFIG_FILE). */
  readonly file: string;
  /** Families `fc-list` must show under this file, or the set is not installed here. */
  readonly families: readonly string[];
  readonly packages: readonly string[];
}

const file = (name: string) => fileURLToPath(new URL(`./${name}.conf`, import.meta.url));

/** A bare Debian's fonts: DejaVu only. */
export const DEJAVU: FontSet = {
  name: "DejaVu only",
  file: file("dejavu"),
  families: ["DejaVu Sans"],
  packages: ["fonts-dejavu-core"],
};

/** DejaVu and Liberation 2, whose Sans measures like Arial and Helvetica (most visitors' fonts). */
export const LIBERATION: FontSet = {
  name: "DejaVu and Liberation",
  file: file("liberation"),
  families: ["DejaVu Sans", "Liberation Sans"],
  packages: ["fonts-dejavu-core", "fonts-liberation2"],
};

export const FONT_SETS: readonly FontSet[] = [DEJAVU, LIBERATION];

/** The families of `set` that fontconfig cannot find under its file (none: the set is installed). */
export function missingFamilies(set: FontSet): string[] {
  const listed = spawnSync("fc-list", [":", "family"], {
    encoding: "utf8",
    env: { ...process.env, FONTCONFIG_FILE: set.file },
  });
  if (listed.error) return [...set.families];
  const families = new Set(listed.stdout.split("\n").flatMap((line) => line.split(",")));
  return set.families.filter((family) => !families.has(family));
}
