import { describe, expect, it } from "vitest";

import { parseEnv } from "~/lib/env.server";

describe("the undelivered file and the metrics token in the environment", () => {
  it("defaults: .data/undelivered-contact-requests.jsonl, no metrics", () => {
    const env = parseEnv({});
    expect(env.CONTACT_UNDELIVERED_FILE).toBe(".data/undelivered-contact-requests.jsonl");
    expect(env.METRICS_TOKEN).toBeUndefined();
  });

  it("takes a path and a token", () => {
    const env = parseEnv({
      CONTACT_UNDELIVERED_FILE: " /var/lib/site/undelivered.jsonl ",
      METRICS_TOKEN: "a-long-random-token-42",
    });
    expect(env.CONTACT_UNDELIVERED_FILE).toBe("/var/lib/site/undelivered.jsonl");
    expect(env.METRICS_TOKEN).toBe("a-long-random-token-42");
  });

  it("refuses the inbox file as the undelivered file, naming the variable", () => {
    expect(() =>
      parseEnv({ CONTACT_INBOX_FILE: "./.data/leads.jsonl", CONTACT_UNDELIVERED_FILE: ".data/leads.jsonl" }),
    ).toThrow(/CONTACT_UNDELIVERED_FILE: must not be the inbox file/);
  });

  it("refuses a short token or one with spaces", () => {
    expect(() => parseEnv({ METRICS_TOKEN: "short" })).toThrow(/METRICS_TOKEN: must be at least 16/);
    expect(() => parseEnv({ METRICS_TOKEN: "has a space in the middle" })).toThrow(/METRICS_TOKEN/);
  });
});

describe("PORT and HOST, validated with the other variables", () => {
  it("defaults: port 3000, no host (every interface in production, 127.0.0.1 in development)", () => {
    const env = parseEnv({});
    expect(env.PORT).toBe(3000);
    expect(env.HOST).toBeUndefined();
  });

  it("takes a port and an address or host name", () => {
    expect(parseEnv({ PORT: "8080", HOST: "127.0.0.1" })).toMatchObject({ PORT: 8080, HOST: "127.0.0.1" });
    expect(parseEnv({ HOST: "::1" }).HOST).toBe("::1");
    expect(parseEnv({ HOST: "app.internal" }).HOST).toBe("app.internal");
  });

  it.each(["abc", "0", "65536", "80.5", "-1", "3000abc"])("refuses PORT=%s, naming PORT", (value) => {
    expect(() => parseEnv({ PORT: value })).toThrow(/PORT: must be a port number \(1-65535\)/);
  });

  it.each(["not a host", "host/path", "-bad.example"])("refuses HOST=%s, naming HOST", (value) => {
    expect(() => parseEnv({ HOST: value })).toThrow(/HOST: must be an IP address or a host name/);
  });
});
