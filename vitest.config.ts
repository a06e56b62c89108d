import { fileURLToPath } from "node:url";

import { defineConfig } from "vitest/config";

import { TimesReporter } from "./scripts/test-times.mjs";
import { LIBERATION } from "./test/fonts/font-sets";
import { unitTestFiles } from "./test/unit-files";

const root = fileURLToPath(new URL(".", import.meta.url));
const app = fileURLToPath(new URL("./app", import.meta.url));

export default defineConfig({
  resolve: { alias: { "~": app } },
  test: {
    globals: true,
    environment: "node",
    // A guard against a test that hangs, never a measure of speed: files run side by side on two
    // cores, where a test that starts `npm start` took 37 s once (a 30 s limit failed it).
    testTimeout: 90_000,
    hookTimeout: 120_000,
    // `expect.poll` waits for an event; its default 1 s deadline measured the machine instead (with
    // files side by side, the parts "rendered once the browser is idle" took longer: issue 39).
    expect: { poll: { timeout: 15_000 } },
    // Four files at a time (decision 040): every file has its own ports (scripts/ports.mjs),
    // folders, databases and displays; the two cores, not the waits, then bound the run.
    fileParallelism: true,
    maxWorkers: 4,
    // Every browser sees the same fonts on every machine (decision 039); a test may choose another set.
    env: { FONTCONFIG_FILE: LIBERATION.file },
    // The CPU time each file cost, for the times printed at the end.
    setupFiles: ["test/support/cpu-setup.ts"],
    reporters: ["default", new TimesReporter({ root, unitFiles: unitTestFiles() })],
    // The unit tier shares its workers from file to file (a worker's start cost a second of CPU a
    // file); every other file gets its own, for the servers, browsers and cgroup it starts.
    projects: [
      { extends: true, test: { name: "unit", include: unitTestFiles(), isolate: false } },
      {
        extends: true,
        test: { name: "rest", include: ["test/**/*.test.{ts,tsx}"], exclude: unitTestFiles() },
      },
    ],
  },
});
