import { Readable } from "node:stream";

import { describe, expect, it } from "vitest";

import { createDocumentStream, createRewriteStream } from "~/lib/enhancement/html-stream.server";
import { HELD_MODULE_TYPE, HELD_PRELOAD_REL } from "~/lib/enhancement/paint-first";

async function through(chunks: (string | Buffer)[], stream = createDocumentStream("N0nce+/=")) {
  const out: Buffer[] = [];
  const piped = Readable.from(chunks.map((chunk) => Buffer.from(chunk))).pipe(stream);
  for await (const chunk of piped) out.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(out).toString("utf8");
}

// The shape of Remix's <Scripts> output, with multi-byte text around it.
const HTML =
  '<head><link rel="modulepreload" href="/build/a.js"/><link rel="stylesheet" href="/x.css"/></head>' +
  '<body>ü日本<link rel="modulepreload" href="/build/b.js"/><script nonce="N0nce+/=">1</script>' +
  '<script nonce="N0nce+/=" type="module" async="">import "/build/a.js";</script></body>';
const EXPECTED =
  `<head><link rel="${HELD_PRELOAD_REL}" nonce="N0nce+/=" href="/build/a.js"/><link rel="stylesheet" href="/x.css"/></head>` +
  `<body>ü日本<link rel="${HELD_PRELOAD_REL}" nonce="N0nce+/=" href="/build/b.js"/><script nonce="N0nce+/=">1</script>` +
  `<script nonce="N0nce+/=" type="${HELD_MODULE_TYPE}" async="">import "/build/a.js";</script></body>`;

describe("the document stream (paint first, decision 022)", () => {
  it("holds every module preload (with the nonce) and the module script, and changes nothing else", async () => {
    expect(await through([HTML])).toBe(EXPECTED);
  });

  it("handles a pattern or a multi-byte character split across any chunk boundary", async () => {
    const bytes = Buffer.from(HTML);
    for (let cut = 1; cut < bytes.length; cut++) {
      expect(await through([bytes.subarray(0, cut), bytes.subarray(cut)])).toBe(EXPECTED);
    }
    // One byte at a time.
    expect(await through([...bytes].map((byte) => Buffer.from([byte])))).toBe(EXPECTED);
  });

  it("passes through a document without scripts, and a trailing partial pattern, unchanged", async () => {
    expect(await through(["<p>hello</p>", '<link rel="module'])).toBe('<p>hello</p><link rel="module');
    expect(await through(['<p type="module" as'])).toBe('<p type="module" as');
  });

  it("replaces several patterns that overlap only in their prefixes", async () => {
    const stream = createRewriteStream([
      ["abc", "1"],
      ["abd", "2"],
    ]);
    expect(await through(["xxab", "dab", "cab"], stream)).toBe("xx21ab");
  });
});
