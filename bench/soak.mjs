#!/usr/bin/env node
// Soak test (`npm run soak`): GET / and valid contact POSTs (each its own lead) to /?index at 50
// connections, 30 s each, twice after a warm-up, against the production build and a fake
// send-contact-email, loopback only. Fails (exit 1) on any failed request (GET: not 2xx; POST:
// not the 303 of a sent submission; an error; a timeout, SOAK_TIMEOUT_SECONDS, default 30 on a
// shared machine), a sent POST that never reached the function, or resident memory grown from
// the first round to the last beyond noise.
//
//   SOAK_SECONDS=30 SOAK_WARMUP_SECONDS=10 SOAK_CONNECTIONS=50 SOAK_ROUNDS=2 \
//   REMIX_BUILD_DIR=.builds/soak node bench/soak.mjs [--no-build]
import { readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";

import autocannon from "autocannon";

import { answeredAsSent, distinctContactPosts, failedPosts } from "./lib/contact-posts.mjs";
import { validContactFields } from "./lib/load.mjs";
import { buildApp, startAppServer, startFakeFunction } from "./lib/servers.mjs";

const seconds = Number(process.env.SOAK_SECONDS ?? 30);
const connections = Number(process.env.SOAK_CONNECTIONS ?? 50);
const rounds = Math.max(2, Number(process.env.SOAK_ROUNDS ?? 2));
const warmupSeconds = Number(process.env.SOAK_WARMUP_SECONDS ?? 10);
const timeoutSeconds = Number(process.env.SOAK_TIMEOUT_SECONDS ?? 30);
const buildDir = (process.env.REMIX_BUILD_DIR ?? ".builds/soak").replace(/\/+$/, "");
/** Growth of RSS from round 1 to the last round that still counts as noise. */
const RSS_NOISE_RATIO = 0.15;
const RSS_NOISE_FLOOR_MB = 12;

/** Resident set size of a process in MB, from /proc (Linux). */
function rssMb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(/^VmRSS:\s+(\d+)\s+kB$/m.exec(status)?.[1]);
  return kb / 1024;
}

function load(url, options, duration = seconds) {
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      { url, connections, duration, timeout: timeoutSeconds, ...options },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
    instance.on("error", reject);
  });
}

const fmt = (n, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : "-");

async function main() {
  if (!process.argv.includes("--no-build")) {
    process.stdout.write(`building into ${buildDir} ... `);
    await buildApp(buildDir);
    console.log("done");
  }
  const fake = await startFakeFunction();
  const app = await startAppServer(buildDir, {
    SUPABASE_URL: fake.url,
    SUPABASE_ANON_KEY: "soak-anon-key",
    RATE_LIMIT_PER_CLIENT: "100000000",
    RATE_LIMIT_GLOBAL_PER_MINUTE: "1000000000",
    GA_MEASUREMENT_ID: "",
  });
  const rows = [];
  const failures = [];
  const rssAfterRound = [];
  let peakRss = 0;
  const sampler = setInterval(() => {
    try {
      peakRss = Math.max(peakRss, rssMb(app.pid));
    } catch {
      /* the process is gone: reported by the failed requests */
    }
  }, 500);
  const rssAtStart = rssMb(app.pid);
  const targets = [
    ["GET /", { method: "GET" }],
    ["POST /?index", { method: "POST", requests: distinctContactPosts(validContactFields, {}) }],
  ];
  let rssAfterWarmup = rssAtStart;
  try {
    if (warmupSeconds > 0) {
      for (const [name, options] of targets)
        await load(`${app.url}${name.split(" ")[1]}`, options, warmupSeconds);
      await sleep(2_000);
      rssAfterWarmup = rssMb(app.pid);
    }
    for (let round = 1; round <= rounds; round++) {
      for (const [name, options] of targets) {
        const path = name.split(" ")[1];
        const sentBefore = fake.received();
        const result = await load(`${app.url}${path}`, options);
        const isPost = options.method === "POST";
        // A sent no-JavaScript submission answers 303 to the success page; GET / answers 200.
        const failed = isPost ? failedPosts(result) : result.errors + result.timeouts + result.non2xx;
        const { requests, latency } = result;
        rows.push([round, name.padEnd(14), requests.total, fmt(requests.average), fmt(latency.p50)]);
        rows.at(-1).push(fmt(latency.p99), failed, fmt(rssMb(app.pid), 1));
        if (failed > 0) {
          const statuses = Object.entries(result.statusCodeStats ?? {})
            .filter(([code]) => (isPost ? code !== "303" : !code.startsWith("2")))
            .map(([code, stats]) => `${stats.count}x ${code}`)
            .join(", ");
          failures.push(
            `${name} round ${round}: ${failed} failed${statuses ? ` (${statuses})` : ""}, ${result.errors} errors, ${result.timeouts} timeouts`,
          );
        }
        if (isPost) {
          const reached = fake.received() - sentBefore;
          const sent = answeredAsSent(result);
          // Every POST answered as sent was a distinct valid lead that must have reached the function
          // (requests still in flight when a run ends may reach it without being counted as answered).
          if (reached < sent)
            failures.push(
              `${name} round ${round}: ${sent} answered as sent but only ${reached} reached the function`,
            );
        }
      }
      await sleep(2_000); // let in-flight work and timers settle before reading memory
      rssAfterRound.push(rssMb(app.pid));
    }
  } finally {
    clearInterval(sampler);
  }
  const first = rssAfterRound[0];
  const last = rssAfterRound[rssAfterRound.length - 1];
  const growth = last - first;
  const allowed = Math.max(RSS_NOISE_FLOOR_MB, first * RSS_NOISE_RATIO);
  if (growth > allowed)
    failures.push(
      `RSS grew ${fmt(growth, 1)} MB from round 1 to round ${rounds} (noise allowance ${fmt(allowed, 1)} MB)`,
    );

  const exitCode = await app.stop();
  await fake.close();
  if (exitCode !== 0) failures.push(`server exited with ${exitCode} on SIGTERM`);

  console.log(
    `\nSoak: ${connections} connections, ${seconds} s per target, ${rounds} rounds after a ${warmupSeconds} s warm-up, request timeout ${timeoutSeconds} s (loopback only)\n`,
  );
  console.log(
    ["round", "target        ", "requests", "req/s", "p50 ms", "p99 ms", "failed", "RSS MB"].join("\t"),
  );
  for (const row of rows) console.log(row.join("\t"));
  console.log(
    `\nRSS MB: start ${fmt(rssAtStart, 1)}, after warm-up ${fmt(rssAfterWarmup, 1)}, ${rssAfterRound.map((rss, i) => `after round ${i + 1} ${fmt(rss, 1)}`).join(", ")}, peak ${fmt(peakRss, 1)}; growth ${fmt(growth, 1)} (allowed ${fmt(allowed, 1)})`,
  );
  if (failures.length) {
    console.log(`\nFAIL\n  ${failures.join("\n  ")}`);
    process.exit(1);
  }
  console.log("\nPASS: zero failed requests, memory flat");
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
