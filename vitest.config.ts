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
    include: ["test/**/*.test.{ts,tsx}"],
    environment: "node",
    // Browser and HTTP suites start real servers; give them room on a shared 2-core machine.
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Files run side by side (issue 39): each starts its own servers on free ports of 127.0.0.1, in
    // its own folders, with its own PostgreSQL, browsers and Xvfb display, so none waits for
    // another. Most of a file's time is waiting (for a server, a browser, a timeout it provokes):
    // four at once keep two cores busy without starving a page of the frames it is measured by.
    fileParallelism: true,
    maxWorkers: 4,
    // Every browser sees the same fonts on every machine (decision 039); a test may choose another set.
    env: { FONTCONFIG_FILE: LIBERATION.file },
    reporters: ["default", new TimesReporter({ root, unitFiles: unitTestFiles() })],
  },
});
