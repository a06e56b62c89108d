#!/usr/bin/env node
// Placeholder: builds once, then runs every vitest suite. Extended by the CI work (browser detection).
import { spawnSync } from "node:child_process";

const run = (cmd, args) => {
  const result = spawnSync(cmd, args, { stdio: "inherit", env: process.env });
  if (result.status !== 0) process.exit(result.status ?? 1);
};
run("npm", ["run", "build", "--silent"]);
run("npx", ["vitest", "run", ...process.argv.slice(2)]);
