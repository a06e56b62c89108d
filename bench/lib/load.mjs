// Server throughput with autocannon, on loopback. autocannon runs in this process and
// shares the machine's cores with the server: the figures are observations of this
// machine, not of production hardware.
import autocannon from "autocannon";

/** A contact request that passes the shared validator (spec section 5). */
export const validContactForm = new URLSearchParams({
  name: "Bench Visitor",
  email: "bench.visitor@example.com",
  phone: "+1 513 555 0100",
  company: "Bench Co",
  website: "https://bench.example.com",
  companySize: "11-50",
  industry: "Logistics",
  message: "We would like to automate our order intake and customer replies. Please get in touch.",
}).toString();

const browserHeaders = { "accept-encoding": "br, gzip", accept: "text/html,*/*" };

function run(options) {
  return new Promise((resolve, reject) => {
    autocannon({ pipelining: 1, ...options }, (err, result) => (err ? reject(err) : resolve(result)));
  });
}

function figures(result) {
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
 * GET `/` and the stylesheet at 10 and 50 connections; POST of a valid contact form
 * at 10 connections, and the fake function's own latency at the same concurrency.
 */
export async function runLoad(
  { appUrl, stylesheetPath, fakeFunctionUrl, fakeReceived, duration = 5 },
  log = () => {},
) {
  const out = { duration, get: {}, static: {}, post: null, fake: null };
  await run({ url: `${appUrl}/`, connections: 10, duration: 2, headers: browserHeaders }); // warm-up (JIT)
  for (const connections of [10, 50]) {
    // At 50 connections a busy machine can take seconds per page; the longer window lets
    // enough requests complete to give a rate (autocannon counts only completed ones).
    const window = connections > 10 ? duration * 2 : duration;
    out.get[connections] = figures(
      await run({ url: `${appUrl}/`, connections, duration: window, headers: browserHeaders }),
    );
    log(`  GET / c${connections}: ${out.get[connections].rps} rps p50 ${out.get[connections].p50} ms`);
    if (stylesheetPath) {
      out.static[connections] = figures(
        await run({
          url: `${appUrl}${stylesheetPath}`,
          connections,
          duration: window,
          headers: browserHeaders,
        }),
      );
      log(`  GET ${stylesheetPath} c${connections}: ${out.static[connections].rps} rps`);
    }
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
  out.post = figures(
    await run({
      url: `${appUrl}/?index`,
      method: "POST",
      connections: 10,
      duration,
      headers: formHeaders,
      body: validContactForm,
    }),
  );
  out.post.reachedFunction = fakeReceived() - receivedBefore;
  log(`  POST /?index c10: ${out.post.rps} rps p50 ${out.post.p50} ms (${out.post.non2xx} non-2xx)`);
  out.post.addedP50 = Math.round((out.post.p50 - out.fake.p50) * 100) / 100;
  out.post.addedMean = Math.round((out.post.mean - out.fake.mean) * 100) / 100;
  return out;
}
