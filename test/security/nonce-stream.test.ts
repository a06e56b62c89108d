import { Readable } from "node:stream";

import { describe, expect, it } from "vitest";

import { createPreloadNonceStream } from "~/lib/security/nonce-stream.server";

async function through(chunks: (string | Buffer)[], nonce = "N0nce+/=") {
  const out: Buffer[] = [];
  const stream = Readable.from(chunks.map((chunk) => Buffer.from(chunk))).pipe(
    createPreloadNonceStream(nonce),
  );
  for await (const chunk of stream) out.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(out).toString("utf8");
}

const HTML =
  '<head><link rel="modulepreload" href="/build/a.js"/><link rel="stylesheet" href="/x.css"/></head>' +
  '<body>ü日本<link rel="modulepreload" href="/build/b.js"/><script nonce="N0nce+/=">1</script></body>';
const EXPECTED = HTML.replace(/<link rel="modulepreload"/g, '<link rel="modulepreload" nonce="N0nce+/="');

describe("module preload nonces", () => {
  it("adds the nonce to every modulepreload link and changes nothing else", async () => {
    expect(await through([HTML])).toBe(EXPECTED);
  });

  it("handles a tag or a multi-byte character split across any chunk boundary", async () => {
    const bytes = Buffer.from(HTML);
    for (let cut = 1; cut < bytes.length; cut++) {
      expect(await through([bytes.subarray(0, cut), bytes.subarray(cut)])).toBe(EXPECTED);
    }
    // One byte at a time.
    expect(await through([...bytes].map((byte) => Buffer.from([byte])))).toBe(EXPECTED);
  });

  it("passes through a document without preloads, and a trailing partial tag, unchanged", async () => {
    expect(await through(["<p>hello</p>", '<link rel="module'])).toBe('<p>hello</p><link rel="module');
  });
});
