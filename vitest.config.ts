import { fileURLToPath } from "node:url";

import { defineConfig } from "vitest/config";

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
    // Suites that start servers and browsers compete for two cores: run files one at a time.
    fileParallelism: false,
  },
});
