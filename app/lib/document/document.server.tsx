import { readFileSync } from "node:fs";
import { PassThrough } from "node:stream";
import { text } from "node:stream/consumers";

import type { AppLoadContext, EntryContext } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { renderToPipeableStream } from "react-dom/server";

import { documentServed } from "~/lib/document/events.server";
import { documentPolicy } from "~/lib/security/headers.server";

import {
  type HeldScripts,
  holdScriptsUntilPaint,
  moveTrailingMarkupIntoBody,
  scriptSources,
} from "./markup.server";

/**
 * The one home of every HTML document the server sends, in three steps: render, finish, policy
 * (docs/architecture.md, decision 030). The home page and its success variant take them once, at
 * build (server/home-document.ts, decision 041).
 */

const RENDER_DEADLINE_MS = 5_000;

// ---- 1. render -------------------------------------------------------------------------------

interface Rendered {
  html: string;
  status: number;
}

/** The whole document, once every part is ready (nothing on this site streams in later). */
function render(request: Request, status: number, remixContext: EntryContext): Promise<Rendered> {
  return new Promise((resolve, reject) => {
    const sink = new PassThrough();
    text(sink).then((html) => resolve({ html, status }), reject);
    const { pipe, abort } = renderToPipeableStream(
      <RemixServer context={remixContext} url={request.url} abortDelay={RENDER_DEADLINE_MS} />,
      {
        onAllReady() {
          clearTimeout(deadline);
          pipe(sink);
        },
        onShellError(error: unknown) {
          clearTimeout(deadline);
          reject(error);
        },
        onError(error: unknown) {
          // The error boundary renders what the visitor sees; the log keeps the cause.
          status = 500;
          console.error(error);
        },
      },
    );
    // Gives up on anything still pending (the error boundary then takes over).
    const deadline = setTimeout(abort, RENDER_DEADLINE_MS + 1_000);
    deadline.unref();
  });
}

// ---- 2. finish -------------------------------------------------------------------------------

/**
 * The paint-first loader, compiled by the build next to the server build (scripts/bundle.mjs).
 * Read once at start: a build without it cannot serve a document, so it fails here, loudly.
 */
const paintFirstLoader = readFileSync(new URL("./paint-first.js", import.meta.url), "utf8").trim();

type Finished = HeldScripts;

function finish(html: string): Finished {
  return holdScriptsUntilPaint(moveTrailingMarkupIntoBody(html), paintFirstLoader);
}

// ---- 3. policy -------------------------------------------------------------------------------

function reportRefused(request: Request, refused: number): void {
  if (refused > 0)
    console.error(
      JSON.stringify({
        event: "document_script_refused",
        path: new URL(request.url).pathname,
        scripts: refused,
      }),
    );
}

// ---- the response ---------------------------------------------------------------------------

/** What entry.server answers for every document request. */
export async function documentResponse(
  request: Request,
  status: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
): Promise<Response> {
  const rendered = await render(request, status, remixContext);
  const finished = finish(rendered.html);
  const sources = scriptSources(finished);
  // Written once and served to everyone: a page with a script its policy refuses never is.
  if (loadContext.prerender && sources.refused > 0)
    throw new Error(`The document has ${sources.refused} inline script(s) inside the page's markup.`);
  reportRefused(request, sources.refused);
  responseHeaders.set("Content-Security-Policy", documentPolicy(sources.hashes));
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  const response = new Response(finished.html, { status: rendered.status, headers: responseHeaders });
  // The build's own request for a page it writes as a file is not a document sent to anyone.
  if (!loadContext.prerender) documentServed.publish({ status: response.status, source: "rendered" });
  return response;
}
