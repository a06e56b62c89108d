import { describe, expect, it } from "vitest";

import {
  clientAddress,
  clientLimitKey,
  forwardedAsHttps,
  normalizeAddress,
} from "~/lib/security/proxy.server";

const request = (headers: Record<string, string>, url = "http://127.0.0.1:3000/") =>
  new Request(url, { headers });

describe("clientAddress", () => {
  it("ignores X-Forwarded-For when no proxy is trusted (anyone can write it)", () => {
    expect(clientAddress(request({ "x-forwarded-for": "203.0.113.7" }), 0)).toBeUndefined();
  });

  it("takes the hop the outermost trusted proxy wrote, not what the visitor wrote before it", () => {
    // The visitor sent "1.1.1.1"; our one proxy appended the address it really saw.
    const spoofed = request({ "x-forwarded-for": "1.1.1.1, 203.0.113.7" });
    expect(clientAddress(spoofed, 1)).toBe("203.0.113.7");
    // Two proxies (CDN, then load balancer): the CDN saw the visitor, the balancer saw the CDN.
    const twoHops = request({ "x-forwarded-for": "1.1.1.1, 203.0.113.7, 10.0.0.2" });
    expect(clientAddress(twoHops, 2)).toBe("203.0.113.7");
  });

  it("uses the only value when a proxy overwrote the header instead of appending", () => {
    expect(clientAddress(request({ "x-forwarded-for": "203.0.113.7" }), 2)).toBe("203.0.113.7");
  });

  it("gives undefined without the header or for a value that is not an IP", () => {
    expect(clientAddress(request({}), 1)).toBeUndefined();
    expect(clientAddress(request({ "x-forwarded-for": "unknown" }), 1)).toBeUndefined();
    expect(clientAddress(request({ "x-forwarded-for": " , " }), 1)).toBeUndefined();
    expect(clientAddress(request({ "x-forwarded-for": "<script>" }), 1)).toBeUndefined();
  });

  it("normalizes ports, brackets, case and IPv4-mapped IPv6 so one visitor is one key", () => {
    expect(normalizeAddress("203.0.113.7:51234")).toBe("203.0.113.7");
    expect(normalizeAddress("[2001:DB8::1]:443")).toBe("2001:db8::1");
    expect(normalizeAddress("2001:db8::1")).toBe("2001:db8::1");
    expect(normalizeAddress("::ffff:203.0.113.7")).toBe("203.0.113.7");
    expect(normalizeAddress("x".repeat(100))).toBeUndefined();
  });
});

describe("clientLimitKey", () => {
  it("keeps an IPv4 address as it is", () => {
    expect(clientLimitKey("203.0.113.7")).toBe("203.0.113.7");
  });

  it("counts every address of one IPv6 /64 as one client, and other /64s apart", () => {
    const one = ["2001:db8:1:2::1", "2001:db8:1:2:ffff:ffff:ffff:ffff", "2001:0db8:0001:0002:abcd::9"];
    expect(new Set(one.map(clientLimitKey))).toEqual(new Set(["2001:db8:1:2::/64"]));
    expect(clientLimitKey("2001:db8:1:3::1")).toBe("2001:db8:1:3::/64");
    expect(clientLimitKey("::1")).toBe("0:0:0:0::/64");
    expect(clientLimitKey("2001:db8::")).toBe("2001:db8:0:0::/64");
    expect(clientLimitKey("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
    expect(clientLimitKey("64:ff9b::203.0.113.7")).toBe("64:ff9b:0:0::/64");
  });
});

describe("forwardedAsHttps", () => {
  it("ignores X-Forwarded-Proto without a trusted proxy", () => {
    expect(forwardedAsHttps("https", 0)).toBe(false);
  });

  it("believes the trusted proxy's X-Forwarded-Proto", () => {
    expect(forwardedAsHttps("https", 1)).toBe(true);
    expect(forwardedAsHttps("HTTPS", 1)).toBe(true);
    expect(forwardedAsHttps("http", 1)).toBe(false);
    expect(forwardedAsHttps(null, 1)).toBe(false);
  });

  it("is not fooled by a visitor-written value in front of the proxy's own", () => {
    expect(forwardedAsHttps("https, http", 1)).toBe(false);
    expect(forwardedAsHttps("http, https", 1)).toBe(true);
  });
});
