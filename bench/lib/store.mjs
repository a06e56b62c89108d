// What keeping a lead costs a contact POST: distinct valid posts at 50 connections against servers
// that differ in where they keep leads, interleaved round by round in a rotated order, medians over
// rounds. The same fake function answers all of them; every post must reach it.
import { interleavedOrder, median } from "./lighthouse.mjs";
import { postLeads } from "./load.mjs";

const CONNECTIONS = 50;

/**
 * `targets`: { name: { url, pid } }, the reference first. Per target, the median figures (counts
 * summed) and each round's; per other target, its p99 over the reference's, round by round and
 * their median (none when a round of either had no answer at all).
 */
export async function runStore({ targets, fake, duration = 5, rounds = 3 }, log) {
  const names = Object.keys(targets);
  const [reference] = names;
  // JIT, connection pools, the first pages of the database files.
  for (const name of names) await postLeads({ server: targets[name], fake, connections: 10, duration: 2 });
  const samples = Object.fromEntries(names.map((name) => [name, []]));
  for (const { target, index } of interleavedOrder(rounds, names)) {
    const f = await postLeads({ server: targets[target], fake, connections: CONNECTIONS, duration });
    samples[target].push(f);
    log(
      `  round ${index + 1} c${CONNECTIONS} ${target}: ${f.rps} rps p50 ${f.p50} ms p99 ${f.p99} ms ` +
        `(${f.sent} sent, ${f.failed} failed, ${f.reachedFunction} reached the function)`,
    );
  }
  const sum = (list, key) => list.reduce((total, sample) => total + sample[key], 0);
  const medianOf = (list, key) =>
    list.every((s) => s[key] !== null) ? median(list.map((s) => s[key])) : null;
  const out = { connections: CONNECTIONS, duration, rounds, reference, targets: {}, ratios: {} };
  for (const [name, list] of Object.entries(samples)) {
    out.targets[name] = {
      ...Object.fromEntries(["rps", "p50", "p99", "cpuMsPerPost"].map((key) => [key, medianOf(list, key)])),
      ...Object.fromEntries(
        ["requests", "sent", "failed", "reachedFunction"].map((key) => [key, sum(list, key)]),
      ),
      roundsWithoutAnswer: list.filter((s) => s.requests === 0).length,
      rounds: list,
    };
  }
  for (const name of names.slice(1)) {
    const ratios = samples[name].map((sample, i) => {
      const base = samples[reference][i].p99;
      return sample.p99 !== null && base ? Math.round((sample.p99 / base) * 1000) / 1000 : null;
    });
    out.ratios[name] = { ratios, ratio: ratios.every((r) => r !== null) ? median(ratios) : null };
  }
  return out;
}
