// Server throughput with autocannon, on loopback. autocannon runs in this process and
// shares the machine's cores with the server: the figures are observations of this
// machine, not of production hardware.
import autocannon from "autocannon";

import { answeredAsSent, distinctContactPosts, failedPosts } from "./contact-posts.mjs";

import { median } from "./lighthouse.mjs";

/** A contact request that passes the shared validator (spec section 5). */
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
export const validContactForm = new URLSearchParams(validContactFields).toString();

const browserHeaders = { "accept-encoding": "br, gzip", accept: "text/html,*/*" };

/** One autocannon run (no pipelining), its result. */
export function run(options) {
  return new Promise((resolve, reject) => {
    autocannon({ pipelining: 1, ...options }, (err, result) => (err ? reject(err) : resolve(result)));
  });
}

/** A run's figures: requests per second, latency, counts. */
export function figures(result) {
  return {
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    mean: Math.round(result.latency.average * 100) / 100,
    requests: result.requests.total,
    ok: result["2xx"],
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
  };
}

/**
 * The median of each figure over the rounds; counts of failures are summed, never smoothed.
 * @param {Record<string, number>[]} samples @returns {Record<string, number>}
 */
export function medianFigures(samples) {
  /** @type {Record<string, number>} */
  const out = {};
  for (const key of Object.keys(samples[0])) {
    const values = samples.map((sample) => sample[key]);
    out[key] = ["non2xx", "errors", "timeouts", "requests", "ok"].includes(key)
      ? values.reduce((a, b) => a + b, 0)
      : median(values);
  }
  return out;
}

/** What GET / is compared with: the reference, its own measurement, and the ratio of each round. */
export function compareRounds(home, reference) {
  const ratios = home.map((sample, i) => (reference[i].rps > 0 ? sample.rps / reference[i].rps : 0));
  return { ratios: ratios.map((r) => Math.round(r * 1000) / 1000), ratio: median(ratios) };
}

/** A link from a newsletter or an ad: the same page, with the parameters such links carry. */
export const CAMPAIGN_QUERY =
  "/?utm_source=newsletter&utm_medium=email&utm_campaign=spring&gclid=Cj0KCQiA&ref=partner";

/**
 * GET `/` (brotli offered, as a browser does) at 10 and 50 connections, and the same page by a
 * campaign link, interleaved round by round with two references measured in the same run: the
 * server's `/healthz` and a bare `node:http` serving the same bytes from memory (the ceiling:
 * issue 42 asks `/` for 0.8 of it, a campaign link for 0.7). With `referenceUrl` (issue 34: the previous release on
 * Node 20), that server's `/` and `/healthz` are measured in the same rounds, so that its
 * `/` ÷ `/healthz` can be set next to this build's. Each round runs the targets in a rotated
 * order, so no target always goes first. Then a POST of a valid contact form at 10 connections,
 * and the fake function's own latency at the same concurrency.
 */
export async function runLoad(
  { appUrl, bareUrl, referenceUrl = null, fakeFunctionUrl, fakeReceived, duration = 5, rounds = 3 },
  log = () => {},
) {
  /** @type {Record<string, string>} */
  const targets = {
    healthz: `${appUrl}/healthz`,
    home: `${appUrl}/`,
    campaign: `${appUrl}${CAMPAIGN_QUERY}`,
    bare: `${bareUrl}/`,
  };
  if (referenceUrl) {
    targets.refHealthz = `${referenceUrl}/healthz`;
    targets.refHome = `${referenceUrl}/`;
  }
  const names = Object.keys(targets);
  const out = { duration, rounds, get: {}, post: null, fake: null };
  for (const url of Object.values(targets))
    await run({ url, connections: 10, duration: 2, headers: browserHeaders }); // warm-up (JIT)

  const samples = {};
  for (const connections of [10, 50])
    samples[connections] = Object.fromEntries(names.map((name) => [name, []]));
  for (let round = 0; round < rounds; round++) {
    for (const connections of [10, 50]) {
      const order = names.map((_, i) => names[(i + round) % names.length]);
      for (const name of order) {
        const result = figures(
          await run({ url: targets[name], connections, duration, headers: browserHeaders }),
        );
        samples[connections][name].push(result);
        log(
          `  round ${round + 1} c${connections} ${name}: ${result.rps} rps p50 ${result.p50} ms p99 ${result.p99} ms`,
        );
      }
    }
  }
  for (const connections of [10, 50]) {
    const s = samples[connections];
    out.get[connections] = {
      home: medianFigures(s.home),
      healthz: medianFigures(s.healthz),
      bare: medianFigures(s.bare),
      campaign: medianFigures(s.campaign),
      toHealthz: compareRounds(s.home, s.healthz),
      toBare: compareRounds(s.home, s.bare),
      campaignToBare: compareRounds(s.campaign, s.bare),
    };
    if (referenceUrl)
      out.get[connections].reference = {
        home: medianFigures(s.refHome),
        healthz: medianFigures(s.refHealthz),
        toHealthz: compareRounds(s.refHome, s.refHealthz),
        toBare: compareRounds(s.refHome, s.bare),
      };
  }

  const formHeaders = {
    ...browserHeaders,
    "content-type": "application/x-www-form-urlencoded",
    origin: appUrl,
  };
  out.fake = figures(
    await run({
      url: `${fakeFunctionUrl}/functions/v1/send-contact-email`,
      method: "POST",
      connections: 10,
      duration: 3,
      headers: { "content-type": "application/json" },
      body: JSON.stringify(Object.fromEntries(new URLSearchParams(validContactForm))),
    }),
  );
  const receivedBefore = fakeReceived();
  const posted = await run({
    url: `${appUrl}/?index`,
    connections: 10,
    duration,
    requests: distinctContactPosts(validContactFields, formHeaders),
  });
  out.post = { ...figures(posted), sent: answeredAsSent(posted), failed: failedPosts(posted) };
  out.post.reachedFunction = fakeReceived() - receivedBefore;
  log(
    `  POST /?index c10: ${out.post.rps} rps p50 ${out.post.p50} ms (${out.post.sent} sent, ${out.post.failed} failed)`,
  );
  out.post.addedP50 = Math.round((out.post.p50 - out.fake.p50) * 100) / 100;
  out.post.addedMean = Math.round((out.post.mean - out.fake.mean) * 100) / 100;
  return out;
}
