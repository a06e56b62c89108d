// What keeping a lead costs a contact POST: valid no-JavaScript posts (each its own lead, success
// = 303) at 50 connections against servers that differ in where they keep leads, measured in one
// run, interleaved round by round in a rotated order (as runLoad does for GET), medians over
// rounds. The same fake function answers all of them; every post must reach it.
import { readFileSync } from "node:fs";

import { answeredAsSent, distinctContactPosts, failedPosts } from "./contact-posts.mjs";
import { median } from "./lighthouse.mjs";
import { figures, run, validContactFields } from "./load.mjs";

const CONNECTIONS = 50;

/** Every run posts messages of its own: the same message within ten minutes is a duplicate (decision 026). */
const runTag = `${process.pid}-${Date.now().toString(36)}`;

/** CPU time (ms, every thread: user and system) a process has used, from /proc (Linux; 10 ms ticks). */
const cpuMs = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
};

/**
 * Posts distinct valid forms to `url` for `duration` seconds at `connections`, and counts how many
 * reached the function meanwhile, and the server's (`pid`) CPU time per answered post: what a
 * loaded machine stretches least (a shared machine's wall clock does).
 */
async function postRun({ url, pid, fake, connections, duration, tag }) {
  const cpuBefore = cpuMs(pid);
  const headers = {
    "accept-encoding": "br, gzip",
    accept: "text/html,*/*",
    "content-type": "application/x-www-form-urlencoded",
    origin: url,
  };
  const fields = { ...validContactFields, message: `${validContactFields.message} [${runTag} ${tag}]` };
  const receivedBefore = fake.received();
  const result = await run({
    url: `${url}/?index`,
    connections,
    duration,
    requests: distinctContactPosts(fields, headers),
  });
  // Requests autocannon stopped waiting for may still reach the function: wait until the count
  // settles (at most 5 s), so that they neither go uncounted nor load the next target's run.
  let settled = fake.received();
  for (let waited = 0, still = 0; waited < 5_000 && still < 3; waited += 100) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const now = fake.received();
    still = now === settled ? still + 1 : 0;
    settled = now;
  }
  const answered = result.requests.total;
  // A run in which the server answered nothing has no latency (autocannon says 0).
  const latency = answered > 0 ? {} : { p50: null, p99: null, mean: null };
  return {
    ...figures(result),
    ...latency,
    // Sent, but not answered when the run ended (at most one per connection on a healthy server).
    unanswered: Math.max(0, (result.requests.sent ?? answered) - answered),
    sent: answeredAsSent(result),
    failed: failedPosts(result),
    reachedFunction: fake.received() - receivedBefore,
    cpuMsPerPost: answered > 0 ? Math.round(((cpuMs(pid) - cpuBefore) / answered) * 100) / 100 : null,
  };
}

/**
 * `targets`: { name: { url, pid } } in the order of the first round (the reference first). Returns, per
 * target, the median figures (counts summed) and each round's; per other target, the ratio of its
 * p99 to the first target's, round by round and their median.
 */
export async function runStore({ targets, fake, duration = 5, rounds = 3 }, log = () => {}) {
  const names = Object.keys(targets);
  const [reference] = names;
  const samples = Object.fromEntries(names.map((name) => [name, []]));
  const warmUp = {};
  // JIT, connection pools, the first pages of the database files.
  for (const name of names)
    warmUp[name] = await postRun({
      ...targets[name],
      fake,
      connections: 10,
      duration: 2,
      tag: `${name} warm-up`,
    });
  for (let round = 0; round < rounds; round++) {
    const order = names.map((_, i) => names[(i + round) % names.length]);
    for (const name of order) {
      const tag = `${name} round ${round + 1}`;
      const figures = await postRun({ ...targets[name], fake, connections: CONNECTIONS, duration, tag });
      samples[name].push(figures);
      const latency = (value) => (value === null ? "–" : `${value} ms`);
      log(
        `  round ${round + 1} c${CONNECTIONS} ${name}: ${figures.rps} rps p50 ${latency(figures.p50)} p99 ${latency(figures.p99)} ` +
          `(${figures.sent} sent, ${figures.failed} failed, ${figures.unanswered} still in flight at the end, ` +
          `${figures.reachedFunction} reached the function)`,
      );
    }
  }
  const sum = (list, key) => list.reduce((total, sample) => total + sample[key], 0);
  const out = { connections: CONNECTIONS, duration, rounds, reference, targets: {}, ratios: {}, warmUp };
  // A round without an answer has no latency: then the target has none either (never a 0).
  const medianOf = (list, key) =>
    list.every((s) => s[key] !== null) ? median(list.map((s) => s[key])) : null;
  for (const name of names) {
    const list = samples[name];
    out.targets[name] = {
      rps: median(list.map((s) => s.rps)),
      p50: medianOf(list, "p50"),
      p99: medianOf(list, "p99"),
      mean: medianOf(list, "mean"),
      cpuMsPerPost: medianOf(list, "cpuMsPerPost"),
      requests: sum(list, "requests"),
      unanswered: sum(list, "unanswered"),
      roundsWithoutAnswer: list.filter((s) => s.requests === 0).length,
      sent: sum(list, "sent"),
      failed: sum(list, "failed"),
      reachedFunction: sum(list, "reachedFunction"),
      rounds: list,
    };
  }
  for (const name of names.slice(1)) {
    // A round in which either server answered nothing has no ratio, and then neither has the target.
    const ratios = samples[name].map((sample, i) => {
      const base = samples[reference][i].p99;
      return sample.p99 !== null && base ? sample.p99 / base : null;
    });
    out.ratios[name] = {
      ratios: ratios.map((r) => (r === null ? null : Math.round(r * 1000) / 1000)),
      ratio: ratios.every((r) => r !== null) ? median(ratios) : null,
    };
  }
  return out;
}
