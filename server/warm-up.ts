import { createRequestHandler, type ServerBuild } from "@remix-run/node";

import { contactSentSearch } from "~/lib/contact/answer";

/** The cached pages (app/lib/document/document.server.tsx): the page, and the page after a sent message. */
const CACHED_PAGES = ["", contactSentSearch];

/**
 * Asks the app for each cached page once, at start, so the first visitor never waits for a render:
 * in process, through Remix's own request handler (the path every request takes after Express),
 * marked as the warm-up in the load context so /metrics does not count it. The first request with a
 * page's exact query is what builds and caches it; if `/` cannot be built, /healthz says so.
 */
export async function warmUp(build: ServerBuild, siteUrl: string): Promise<void> {
  const handle = createRequestHandler(build, build.mode);
  for (const search of CACHED_PAGES) {
    const url = new URL(`/${search}`, siteUrl);
    const response = await handle(new Request(url), { warmUp: true });
    await response.arrayBuffer();
    if (response.status !== 200 || !response.headers.has("etag"))
      throw new Error(
        `GET ${url.pathname}${url.search} answered ${response.status}${response.headers.has("etag") ? "" : " without the cached document's ETag"}.`,
      );
  }
}
