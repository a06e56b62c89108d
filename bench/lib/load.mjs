// Throughput with autocannon on loopback, in this process: it shares the machine's cores with the
// servers, so the figures are observations of this machine, not of production hardware.
import { readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";

import autocannon from "autocannon";

import { interleavedOrder, median } from "./lighthouse.mjs";

/** A contact request that passes the shared validator. */
export const validContactFields = {
  name: "Bench Visitor",
  email: "bench.visitor@example.com",
  phone: "+1 513 555 0100",
  company: "Bench Co",
  website: "https://bench.example.com",
  companySize: "11-50",
  industry: "Logistics",
  message: "We would like to automate our order intake and customer replies. Please get in touch.",
};

/** A link from a newsletter or an ad: the same page, with the parameters such links carry. */
export const CAMPAIGN_QUERY =
  "/?utm_source=newsletter&utm_medium=email&utm_campaign=spring&gclid=Cj0KCQiA&ref=partner";

export const browserHeaders = { "accept-encoding": "br, gzip", accept: "text/html,*/*" };

/** One autocannon run, its result. A stall of a shared machine is a slow answer, not a failure: 30 s. */
export const run = (options) =>
  new Promise((resolve, reject) =>
    autocannon({ pipelining: 1, timeout: 30, ...options }, (error, result) =>
      error ? reject(error) : resolve(result),
    ),
  );

/** A run's figures: requests per second, latency, counts. */
export const figures = (result) => ({
  rps: Math.round(result.requests.average),
  p50: result.latency.p50,
  p99: result.latency.p99,
  mean: Math.round(result.latency.average * 100) / 100,
  requests: result.requests.total,
  non2xx: result.non2xx,
  errors: result.errors,
  timeouts: result.timeouts,
});

const COUNTS = ["requests", "non2xx", "errors", "timeouts"];

/** The median of each figure over the rounds; counts are summed, never smoothed. */
export function medianFigures(samples) {
  const values = (key) => samples.map((sample) => sample[key]);
  return Object.fromEntries(
    Object.keys(samples[0]).map((key) => [
      key,
      COUNTS.includes(key) ? values(key).reduce((a, b) => a + b, 0) : median(values(key)),
    ]),
  );
}

/** `rps` of each round over the reference's of the same round, and the median of those ratios. */
export function compareRounds(home, reference) {
  const ratios = home.map((sample, i) => (reference[i].rps > 0 ? sample.rps / reference[i].rps : 0));
  return { ratios: ratios.map((r) => Math.round(r * 1000) / 1000), ratio: median(ratios) };
}

// Every post its own lead: the same message within ten minutes is answered as a duplicate without
// reaching the function (decision 026). A post that was sent answers 303 to the success page.
const runTag = `${process.pid}-${Date.now().toString(36)}`;
let serial = 0;

/** autocannon `requests` posting the valid form, each with a message of its own. */
export const distinctContactPosts = (headers = {}) => [
  {
    method: "POST",
    headers: { ...headers, "content-type": "application/x-www-form-urlencoded" },
    setupRequest: (request) => ({
      ...request,
      body: new URLSearchParams({
        ...validContactFields,
        message: `${validContactFields.message} (${runTag} ${++serial})`,
      }).toString(),
    }),
  },
];

/** How many of a run's posts were answered as sent (303 to the success page). */
export const answeredAsSent = (result) => result.statusCodeStats?.["303"]?.count ?? 0;
/** Posts that failed: errors, timeouts and every status other than the success redirect. */
export const failedPosts = (result) =>
  result.errors + result.timeouts + result.non2xx + result["2xx"] - answeredAsSent(result);

/** CPU time (ms, user and system, every thread) a process has used, from /proc (10 ms ticks). */
function cpuMs(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * Distinct valid posts to `server` ({ url, pid }) for `duration` seconds: figures, how many were
 * sent, failed and reached the function, and the server's CPU time per answered post (what a
 * shared machine stretches least).
 */
export async function postLeads({ server, fake, connections, duration }) {
  const cpuBefore = cpuMs(server.pid);
  const receivedBefore = fake.received();
  const headers = { ...browserHeaders, origin: server.url };
  const result = await run({
    url: `${server.url}/?index`,
    connections,
    duration,
    requests: distinctContactPosts(headers),
  });
  // Posts autocannon stopped waiting for may still reach the function: wait until the count has
  // held for 300 ms (at most 5 s), so that they neither go uncounted nor load the next run.
  for (let last = -1, waited = 0; fake.received() !== last && waited < 5_000; waited += 300) {
    last = fake.received();
    await sleep(300);
  }
  const answered = result.requests.total;
  return {
    ...figures(result),
    // A run the server answered nothing in has no latency (autocannon says 0).
    ...(answered > 0 ? {} : { p50: null, p99: null, mean: null }),
    sent: answeredAsSent(result),
    failed: failedPosts(result),
    reachedFunction: fake.received() - receivedBefore,
    cpuMsPerPost: answered > 0 ? Math.round(((cpuMs(server.pid) - cpuBefore) / answered) * 100) / 100 : null,
  };
}

/**
 * GET `/` (brotli offered, as a browser does) and the same page by a campaign link, at 10 and 50
 * connections, with references measured in the same rounds: the server's `/healthz` and the bare
 * server (`bareUrl`) sending the same bytes from memory; with `referenceUrl` (the previous release),
 * its `/` and `/healthz` too. The targets take turns in an order that rotates from round to round.
 * Then distinct valid contact posts at 10 connections.
 */
export async function runLoad({ app, bareUrl, referenceUrl, fake, duration = 5, rounds = 3 }, log) {
  const targets = {
    healthz: `${app.url}/healthz`,
    home: `${app.url}/`,
    campaign: `${app.url}${CAMPAIGN_QUERY}`,
    bare: `${bareUrl}/`,
    ...(referenceUrl ? { refHealthz: `${referenceUrl}/healthz`, refHome: `${referenceUrl}/` } : {}),
  };
  const get = (url, connections, seconds = duration) =>
    run({ url, connections, duration: seconds, headers: browserHeaders });
  for (const url of Object.values(targets)) await get(url, 10, 2); // warm-up (JIT)
  const samples = { 10: {}, 50: {} };
  for (const { target, index } of interleavedOrder(rounds, Object.keys(targets))) {
    for (const connections of [10, 50]) {
      const result = figures(await get(targets[target], connections));
      (samples[connections][target] ??= []).push(result);
      log(
        `  round ${index + 1} c${connections} ${target}: ${result.rps} rps p50 ${result.p50} ms p99 ${result.p99} ms`,
      );
    }
  }
  const out = { duration, rounds, get: {} };
  for (const [connections, s] of Object.entries(samples)) {
    out.get[connections] = {
      ...Object.fromEntries(
        ["home", "healthz", "bare", "campaign"].map((name) => [name, medianFigures(s[name])]),
      ),
      toHealthz: compareRounds(s.home, s.healthz),
      toBare: compareRounds(s.home, s.bare),
      campaignToBare: compareRounds(s.campaign, s.bare),
      ...(referenceUrl && {
        reference: {
          home: medianFigures(s.refHome),
          healthz: medianFigures(s.refHealthz),
          toBare: compareRounds(s.refHome, s.bare),
        },
      }),
    };
  }
  out.post = await postLeads({ server: app, fake, connections: 10, duration });
  log(
    `  POST /?index c10: ${out.post.rps} rps p50 ${out.post.p50} ms (${out.post.sent} sent, ${out.post.failed} failed)`,
  );
  return out;
}
