import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { type AppServer, leadStoreEnv, startAppServer, useAppWithFunction } from "../support/app-server";
import { readLeads } from "../support/leads";
import { contactRequest } from "../support/contact-request";

/**
 * GET /metrics (issue 13): Prometheus text for whoever has METRICS_TOKEN; for anyone else the
 * same answer as a path that does not exist.
 */
const TOKEN = "metrics-test-token-0123456789";
const VALUES = contactRequest({
  name: "Dorothy Vaughan",
  email: "dorothy@example.com",
  phone: "+1 757 555 0100",
  company: "West Computing",
  message: "Please automate our FORTRAN training material.",
});

const dataDir = () => mkdtempSync(join(tmpdir(), "metrics-"));

/** The parts of a response a visitor can see, with what differs on every response taken out. */
async function visible(res: Response) {
  const body = (await res.text()).replaceAll("/not-a-page-at-all", "/metrics");
  // The policy lists the hashes of the document's scripts, and one of them carries the path.
  const headers = [...res.headers.entries()]
    .filter(([name]) => name !== "date")
    .map(([name, value]) => [name, value.replace(/'sha256-[^']*'/g, "'sha256-'")]);
  return { status: res.status, headers, body };
}

const scrape = (server: AppServer, authorization?: string) =>
  fetch(`${server.url}/metrics`, authorization ? { headers: { Authorization: authorization } } : {});

describe("GET /metrics with METRICS_TOKEN set", () => {
  const store = leadStoreEnv(dataDir());
  const file = store.LEADS_DATABASE_FILE!;
  const app = useAppWithFunction({
    ...store,
    METRICS_TOKEN: TOKEN,
    RATE_LIMIT_PER_CLIENT: "100",
    RATE_LIMIT_GLOBAL_PER_MINUTE: "1000",
    // A timeout within the test.
    CONTACT_FUNCTION_TIMEOUT_MS: "1500",
  });

  it("without a token: the same 404 as a path that does not exist", async () => {
    const metrics = await visible(await scrape(app.server));
    const unknown = await visible(await fetch(`${app.server.url}/not-a-page-at-all`));
    expect(metrics.status).toBe(404);
    expect(metrics).toEqual(unknown);
    expect(metrics.body).not.toMatch(/# HELP|routes\/metrics/);
  });

  it("with a wrong token, another scheme or a token with extra characters: the same 404", async () => {
    const unknown = await visible(await fetch(`${app.server.url}/not-a-page-at-all`));
    for (const authorization of [
      "Bearer wrong-token-wrong-token",
      `Basic ${TOKEN}`,
      `Bearer ${TOKEN}x`,
      `Bearer ${TOKEN.slice(0, -1)}`,
      TOKEN,
    ]) {
      expect(await visible(await scrape(app.server, authorization))).toEqual(unknown);
    }
  });

  it("a POST gets what a POST to an unknown path gets", async () => {
    const post = (path: string) =>
      fetch(`${app.server.url}${path}`, {
        method: "POST",
        headers: { Authorization: `Bearer ${TOKEN}` },
        body: new URLSearchParams({ a: "b" }),
      });
    const metrics = await visible(await post("/metrics"));
    expect(metrics).toEqual(await visible(await post("/not-a-page-at-all")));
  });

  it("with the right token: Prometheus text, never cached, with every metric family", async () => {
    app.fake.setMode({ kind: "success" });
    expect(
      (await fetch(`${app.server.url}/?index`, { method: "POST", body: new URLSearchParams(VALUES) })).status,
    ).toBe(200);
    // The same request again (a reload): answered as sent, not sent again.
    expect(
      (await fetch(`${app.server.url}/?index`, { method: "POST", body: new URLSearchParams(VALUES) })).status,
    ).toBe(200);
    app.fake.setMode({ kind: "status", status: 500 });
    const another = new URLSearchParams({ ...VALUES, message: `${VALUES.message} And payroll.` });
    expect((await fetch(`${app.server.url}/?index`, { method: "POST", body: another })).status).toBe(502);
    app.fake.setMode({ kind: "hang" });
    const unanswered = new URLSearchParams({ ...VALUES, message: `${VALUES.message} And the library.` });
    expect((await fetch(`${app.server.url}/?index`, { method: "POST", body: unanswered })).status).toBe(504);
    const invalid = new URLSearchParams({ ...VALUES, email: "nope" });
    expect((await fetch(`${app.server.url}/?index`, { method: "POST", body: invalid })).status).toBe(400);
    const bot = new URLSearchParams({
      ...VALUES,
      message: `${VALUES.message} Cheap links.`,
      hp_ref_code: "bot",
    });
    expect((await fetch(`${app.server.url}/?index`, { method: "POST", body: bot })).status).toBe(200);

    const res = await scrape(app.server, `Bearer ${TOKEN}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    const text = await res.text();

    expect(text.split("\n")).toEqual(
      expect.arrayContaining([
        'contact_submissions_total{result="sent"} 1',
        'contact_submissions_total{result="send-failed"} 1',
        'contact_submissions_total{result="timeout"} 1',
        'contact_submissions_total{result="invalid"} 1',
        'contact_submissions_total{result="rate-limited"} 0',
        'contact_submissions_total{result="duplicate"} 1',
        'contact_submissions_total{result="spam"} 1',
        "# TYPE contact_function_duration_seconds histogram",
        'contact_function_duration_seconds_count{outcome="ok"} 1',
        'contact_function_duration_seconds_count{outcome="http"} 1',
        'contact_function_duration_seconds_count{outcome="timeout"} 1',
        'contact_function_duration_seconds_bucket{le="+Inf",outcome="ok"} 1',
        // The lead store, read at the scrape: one lead waits for a retry, one is held (unknown outcome).
        ...["pending", "possibly_delivered", "dead", "spam", "oldest_pending_age_seconds"].map(
          (gauge) => `# TYPE leads_${gauge} gauge`,
        ),
        "leads_pending 1",
        "leads_possibly_delivered 1",
        "leads_dead 0",
        "leads_spam 1",
        expect.stringMatching(/^leads_oldest_pending_age_seconds \d+$/),
        "# TYPE lead_delivery_attempts_total counter",
        'lead_delivery_attempts_total{by="visitor",outcome="delivered"} 1',
        'lead_delivery_attempts_total{by="visitor",outcome="pending"} 1',
        'lead_delivery_attempts_total{by="visitor",outcome="possibly_delivered"} 1',
        expect.stringMatching(/^# HELP documents_served_total /),
        "# TYPE documents_served_total counter",
        // prom-client's default process metrics.
        expect.stringMatching(/^process_resident_memory_bytes \d+/),
        expect.stringMatching(/^nodejs_eventloop_lag_seconds /),
        expect.stringMatching(/^nodejs_heap_size_used_bytes /),
      ]),
    );
    expect(text).not.toContain("contact_undelivered_pending");
    expect(text).not.toMatch(/^lead_delivery_attempts_total\{by="dispatcher"/m);
    // What the gauges say is what the store holds.
    expect(
      readLeads(file)
        .map((lead) => lead.state)
        .sort(),
    ).toEqual(["delivered", "pending", "possibly_delivered", "spam"]);
  });

  it("counts the documents it serves: the pages made at build, and each one rendered for its request", async () => {
    const count = async (labels: string) => {
      const text = await (await scrape(app.server, `Bearer ${TOKEN}`)).text();
      const line = text.split("\n").find((l) => l.startsWith(`documents_served_total{${labels}} `));
      return Number(line?.split(" ")[1] ?? 0);
    };
    const prerendered = await count('status="200",source="prerendered"');
    const revalidated = await count('status="304",source="prerendered"');
    const notFound = await count('status="404",source="rendered"');
    const answered = await count('status="400",source="rendered"');

    const first = await fetch(`${app.server.url}/`);
    await first.arrayBuffer();
    await (await fetch(`${app.server.url}/?utm_source=x`)).arrayBuffer();
    const etag = first.headers.get("etag")!;
    expect((await fetch(`${app.server.url}/`, { headers: { "if-none-match": etag } })).status).toBe(304);
    await (await fetch(`${app.server.url}/nowhere`)).arrayBuffer();
    app.fake.setMode({ kind: "success" });
    // A success is a redirect (no document) to the page with the notice, itself made at build.
    const post = await fetch(`${app.server.url}/?index`, {
      method: "POST",
      body: new URLSearchParams({ ...VALUES, message: `${VALUES.message} Counted.` }),
    });
    expect(post.redirected).toBe(true);
    await post.arrayBuffer();
    const invalid = await fetch(`${app.server.url}/?index`, {
      method: "POST",
      body: new URLSearchParams({ ...VALUES, email: "nope" }),
    });
    expect(invalid.status).toBe(400);
    await invalid.arrayBuffer();

    expect(await count('status="200",source="prerendered"')).toBe(prerendered + 3);
    expect(await count('status="304",source="prerendered"')).toBe(revalidated + 1);
    expect(await count('status="404",source="rendered"')).toBe(notFound + 1);
    expect(await count('status="400",source="rendered"')).toBe(answered + 1);
  });

  it("the bearer scheme is case-insensitive, as HTTP says", async () => {
    expect((await scrape(app.server, `bearer ${TOKEN}`)).status).toBe(200);
  });

  it("no visitor data in any label or value", async () => {
    const text = await (await scrape(app.server, `Bearer ${TOKEN}`)).text();
    for (const value of [VALUES.name, VALUES.email, VALUES.phone, VALUES.company, "FORTRAN", "example.com"]) {
      expect(text).not.toContain(value);
    }
    const labelValues = [...text.matchAll(/\{([^}]*)\}/g)].flatMap((match) =>
      [...(match[1] ?? "").matchAll(/\w+="([^"]*)"/g)].map((label) => label[1]),
    );
    for (const value of labelValues) expect(value).toMatch(/^[\w.+\-/: ]*$/);
  });
});

describe("GET /metrics without METRICS_TOKEN", () => {
  it("is a 404 for everyone, whatever they send", async () => {
    const server = await startAppServer();
    try {
      for (const authorization of [undefined, "Bearer ", "Bearer undefined", `Bearer ${TOKEN}`]) {
        const res = await scrape(server, authorization);
        expect(res.status).toBe(404);
        expect(await res.text()).not.toContain("# HELP");
      }
    } finally {
      await server.stop();
    }
  });
});

describe("GET /metrics when the lead store cannot be read", () => {
  it("the lead gauges say NaN (unknown), never a 0 that looks fine; the other metrics are still there", async () => {
    const store = leadStoreEnv(dataDir());
    writeFileSync(store.LEADS_DATABASE_FILE!, "not an SQLite database ".repeat(300));
    const server = await startAppServer({ ...store, METRICS_TOKEN: TOKEN });
    try {
      const res = await scrape(server, `Bearer ${TOKEN}`);
      expect(res.status).toBe(200);
      const text = await res.text();
      for (const gauge of [
        "leads_pending",
        "leads_possibly_delivered",
        "leads_dead",
        "leads_oldest_pending_age_seconds",
      ])
        // prom-client writes "Nan"; Prometheus reads NaN in any case.
        expect(text).toMatch(new RegExp(`^${gauge} NaN$`, "im"));
      expect(text).toMatch(/^process_resident_memory_bytes \d+/m);
      expect(server.output()).toContain('"event":"metrics_lead_store_unavailable"');
    } finally {
      await server.stop();
    }
  });
});
