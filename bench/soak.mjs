#!/usr/bin/env node
// `npm run soak`: GET / and distinct valid contact posts (each its own lead) at 50 connections, 30 s
// each, twice after a warm-up, against the production build (REMIX_BUILD_DIR, default .builds/soak,
// built first) and a fake send-contact-email, on loopback. Exits 1 on any failed request (GET: not
// 2xx; POST: not the 303 of a sent submission; an error; a timeout), a sent post that never reached
// the function, or resident memory grown from the first round to the last beyond noise.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

import { browserHeaders, figures, postLeads, run } from "./lib/load.mjs";
import { benchEnv, buildApp, leadStoreEnv, startAppServer, startFakeFunction } from "./lib/servers.mjs";

const SECONDS = 30;
const CONNECTIONS = 50;
const ROUNDS = 2;
const buildDir = (process.env.REMIX_BUILD_DIR || ".builds/soak").replace(/\/+$/, "");
/** Growth of resident memory from the first round to the last that still counts as noise. */
const rssNoiseMb = (firstMb) => Math.max(12, firstMb * 0.15);

/** Resident set size of a process in MB, from /proc. */
const rssMb = (pid) =>
  Number(/^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1]) / 1024;

console.log(`building into ${buildDir} ...`);
await buildApp(buildDir);
const dataDir = mkdtempSync(join(tmpdir(), "soak-leads-"));
const fake = await startFakeFunction();
const app = await startAppServer(buildDir, { ...benchEnv(fake), ...leadStoreEnv(dataDir) });
const targets = {
  "GET /": async (seconds) => {
    const f = figures(
      await run({ url: `${app.url}/`, connections: CONNECTIONS, duration: seconds, headers: browserHeaders }),
    );
    return { ...f, failed: f.non2xx + f.errors + f.timeouts };
  },
  "POST /?index": (seconds) => postLeads({ server: app, fake, connections: CONNECTIONS, duration: seconds }),
};
const failures = [];
const rss = [["start", rssMb(app.pid)]];
try {
  for (const measure of Object.values(targets)) await measure(10); // warm-up (JIT)
  rss.push(["after warm-up", rssMb(app.pid)]);
  console.log(["round", "target", "requests", "req/s", "p50 ms", "p99 ms", "failed"].join("\t"));
  for (let round = 1; round <= ROUNDS; round++) {
    for (const [name, measure] of Object.entries(targets)) {
      const f = await measure(SECONDS);
      console.log([round, name, f.requests, f.rps, f.p50, f.p99, f.failed].join("\t"));
      if (f.failed > 0) failures.push(`${name} round ${round}: ${f.failed} failed`);
      // Every post answered as sent was a distinct valid lead: it must have reached the function.
      if (f.reachedFunction < f.sent)
        failures.push(`${name} round ${round}: ${f.sent} sent, ${f.reachedFunction} reached the function`);
    }
    await sleep(2_000); // in-flight work and timers settle before memory is read
    rss.push([`after round ${round}`, rssMb(app.pid)]);
  }
} finally {
  const exitCode = await app.stop();
  if (exitCode !== 0) failures.push(`the server exited with ${exitCode} on SIGTERM`);
  await fake.close();
  rmSync(dataDir, { recursive: true, force: true });
}
const [first, last] = [rss[2][1], rss.at(-1)[1]];
console.log(`\nRSS MB: ${rss.map(([when, mb]) => `${when} ${mb.toFixed(1)}`).join(", ")}`);
if (last - first > rssNoiseMb(first))
  failures.push(
    `RSS grew ${(last - first).toFixed(1)} MB from round 1 to ${ROUNDS} (noise: ${rssNoiseMb(first).toFixed(1)} MB)`,
  );
console.log(
  failures.length ? `\nFAIL\n  ${failures.join("\n  ")}` : "\nPASS: zero failed requests, memory flat",
);
process.exitCode = failures.length ? 1 : 0;
