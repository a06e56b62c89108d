import { request } from "node:http";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { type AppServer, startAppServer } from "../support/app-server";

/**
 * Without a proxy (TRUST_PROXY=0, the default) the per-client limit goes by the socket's address
 * (issue 24): one client's loop is stopped by its own limit and never uses up the shared ceiling.
 * Two clients are two loopback addresses (Linux routes all of 127/8 to the loopback interface).
 */

function post(
  url: string,
  from: string,
  index: number,
  headers: Record<string, string> = {},
  extra: Record<string, string> = {},
) {
  const body = new URLSearchParams({
    name: "Loop Client",
    email: `loop${index}@example.com`,
    message: `Distinct question number ${index}, please.`,
    ...extra,
  }).toString();
  return new Promise<{ status: number; retryAfter: string | undefined }>((resolve, reject) => {
    const req = request(
      `${url}/?index`,
      {
        method: "POST",
        localAddress: from,
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          "content-length": Buffer.byteLength(body),
          ...headers,
        },
      },
      (res) => {
        res.resume();
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            retryAfter: res.headers["retry-after"] as string | undefined,
          }),
        );
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

describe("the per-client limit without a proxy", () => {
  let server: AppServer;
  beforeAll(async () => {
    server = await startAppServer({ RATE_LIMIT_PER_CLIENT: "5", RATE_LIMIT_GLOBAL_PER_MINUTE: "60" });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("one client's loop is limited by its own address; another client still gets through", async () => {
    const statuses: number[] = [];
    for (let index = 0; index < 62; index++)
      statuses.push((await post(server.url, "127.0.0.1", index)).status);
    expect(statuses.slice(0, 5)).toEqual([303, 303, 303, 303, 303]);
    expect(statuses.slice(5).every((status) => status === 429)).toBe(true);
    const limited = await post(server.url, "127.0.0.1", 100);
    expect(Number(limited.retryAfter)).toBeGreaterThan(60);
    expect(server.output()).toContain('"rateLimitScope":"client"');
    expect(server.output()).not.toContain('"rateLimitScope":"global"');
    expect((await post(server.url, "127.0.0.2", 200)).status).toBe(303);
  });

  it("a spam flood is limited apart: 5 held as spam from one client, then 429; the real visitor behind the same address still gets through", async () => {
    const statuses: number[] = [];
    for (let index = 0; index < 12; index++)
      statuses.push((await post(server.url, "127.0.0.3", 400 + index, {}, { hp_ref_code: "bot" })).status);
    expect(statuses).toEqual([...Array<number>(5).fill(303), ...Array<number>(7).fill(429)]);
    await expect
      .poll(
        () =>
          server
            .output()
            .split("\n")
            .filter((line) => line.includes('"result":"spam"')).length,
      )
      .toBe(5);
    // A person on the same office NAT: their own limit is untouched by the bot's flood.
    expect((await post(server.url, "127.0.0.3", 500)).status).toBe(303);
    expect(server.output()).toMatch(/"result":"sent"[^\n]*/);
  });

  it("a forged X-Forwarded-For is ignored without a trusted proxy", async () => {
    const forged = await post(server.url, "127.0.0.1", 300, { "x-forwarded-for": "198.51.100.9" });
    expect(forged.status).toBe(429);
  });
});

describe("the per-client limit behind one trusted proxy (TRUST_PROXY=1)", () => {
  let server: AppServer;
  beforeAll(async () => {
    server = await startAppServer({
      TRUST_PROXY: "1",
      RATE_LIMIT_PER_CLIENT: "3",
      RATE_LIMIT_GLOBAL_PER_MINUTE: "60",
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("every address of one IPv6 /64 is one client: rotating through them does not escape the limit", async () => {
    const statuses: number[] = [];
    for (let index = 0; index < 6; index++) {
      const address = `2001:db8:42:7:${(index * 4099).toString(16)}::${index + 1}`;
      statuses.push(
        (await post(server.url, "127.0.0.1", 1000 + index, { "x-forwarded-for": address })).status,
      );
    }
    expect(statuses).toEqual([303, 303, 303, 429, 429, 429]);
    // Another /64 is another customer.
    const other = await post(server.url, "127.0.0.1", 1100, { "x-forwarded-for": "2001:db8:42:8::1" });
    expect(other.status).toBe(303);
  });

  it("without X-Forwarded-For, the connection's own address is the client (never no limit at all)", async () => {
    const statuses: number[] = [];
    for (let index = 0; index < 5; index++)
      statuses.push((await post(server.url, "127.0.0.3", 2000 + index)).status);
    expect(statuses).toEqual([303, 303, 303, 429, 429]);
    expect((await post(server.url, "127.0.0.4", 2100)).status).toBe(303);
  });
});
