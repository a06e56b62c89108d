// The Lighthouse reference of issue 26: a bare HTML document (a heading and a paragraph; no
// stylesheet, no script, no image), served from memory by bench/lib/bare-server.mjs. Measured in
// the same run as the page, interleaved with it, it is this machine's floor at that moment: what
// Chromium's and Lighthouse's own work (the navigation commit, the first paint) scores when the page
// adds nothing. The page's TBT is judged against it (docs/performance.md).

/** The document: valid, with a language, a title, a description and a viewport, and nothing else. */
export const BARE_DOCUMENT = [
  "<!doctype html>",
  '<html lang="en">',
  '<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
  "<title>A bare document</title>",
  '<meta name="description" content="The Lighthouse reference of the benchmark: one heading and one paragraph."></head>',
  "<body><h1>A bare document</h1>",
  "<p>One heading and one paragraph: no stylesheet, no script, no image. The benchmark measures it with Lighthouse in the same run as the page, interleaved with it, as this machine's floor.</p>",
  "</body></html>",
].join("\n");

/** The response bench/lib/bare-server.mjs sends for it (startBareServer in servers.mjs). */
export function bareDocumentResponse() {
  return {
    headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" },
    body: Buffer.from(BARE_DOCUMENT, "utf8"),
  };
}
