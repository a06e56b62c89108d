import { existsSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { type AppServer, startAppServer } from "../support/app-server";

/**
 * The observatory is installed without its install scripts (they download the HSTS preload and TLD
 * lists), so the two data files it reads are created empty here: this host is in neither list.
 */
function prepareObservatory(): void {
  const require = createRequire(import.meta.url);
  const packageDir = dirname(require.resolve("@mdn/mdn-http-observatory/package.json"));
  const files: Record<string, string> = { "hsts-preload.json": "{}", "tld-list.json": "[]" };
  for (const [name, content] of Object.entries(files)) {
    const path = join(packageDir, "conf", name);
    if (!existsSync(path)) writeFileSync(path, content);
  }
}

/** Tests that can only pass over HTTPS, which the local server does not speak (TLS ends at the proxy). */
const NEEDS_HTTPS = new Set(["redirection", "strict-transport-security"]);

describe("MDN HTTP Observatory", () => {
  let server: AppServer;
  beforeAll(async () => {
    prepareObservatory();
    server = await startAppServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("passes every test except the two that need HTTPS", async () => {
    const { scan } = await import("@mdn/mdn-http-observatory");
    // The scanner tries https:// and http:// on this host:port; only the latter answers.
    const result = await scan(`127.0.0.1:${server.port}`);
    const summary = Object.entries(result.tests).map(
      ([name, test]) => `${name}: ${test.result} (${test.pass ? "pass" : "FAIL"})`,
    );
    console.log(`Observatory grade ${result.scan.grade} (${result.scan.score}):\n  ${summary.join("\n  ")}`);
    expect(Object.keys(result.tests).sort()).toEqual(
      [
        "content-security-policy",
        "cookies",
        "cross-origin-resource-sharing",
        "redirection",
        "referrer-policy",
        "strict-transport-security",
        "subresource-integrity",
        "x-content-type-options",
        "x-frame-options",
        "cross-origin-resource-policy",
      ].sort(),
    );
    const unexpected = Object.entries(result.tests).filter(
      ([name, test]) => !test.pass && !NEEDS_HTTPS.has(name),
    );
    expect(unexpected.map(([name, test]) => `${name}: ${test.result}`)).toEqual([]);
    // The policy is the strong kind: hashes + strict-dynamic, no unsafe-inline, deny framing.
    const csp = result.tests["content-security-policy"];
    expect(csp?.result).toBe("csp-implemented-with-no-unsafe");
    expect(result.tests["x-frame-options"]?.pass).toBe(true);
  });
});
