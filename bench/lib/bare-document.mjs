// The Lighthouse floor: a bare, valid HTML document (a heading and a paragraph; no stylesheet,
// script or image), measured interleaved with the page in the same run: what Chromium's and
// Lighthouse's own work scores on this machine at that moment. The page's TBT is judged against it.
export const BARE_DOCUMENT = [
  '<!doctype html><html lang="en"><head><meta charset="utf-8">',
  '<meta name="viewport" content="width=device-width, initial-scale=1"><title>A bare document</title>',
  '<meta name="description" content="The floor of the benchmark: one heading and one paragraph."></head>',
  "<body><h1>A bare document</h1><p>One heading and one paragraph: no stylesheet, no script, no image.</p>",
  "</body></html>",
].join("\n");

/** The response the bare server sends for it. */
export const bareDocumentResponse = () => ({
  headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" },
  body: Buffer.from(BARE_DOCUMENT, "utf8"),
});
