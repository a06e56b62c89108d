import type { AppLoadContext, EntryContext, HandleDataRequestFunction } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";

import { NonceContext } from "~/lib/nonce";
import { applyHeaders, createNonce } from "~/lib/security/headers.server";
import { createDocumentStream } from "~/lib/enhancement/html-stream.server";
import { documentHeadersFor, nonDocumentHeadersFor } from "~/lib/security/policy.server";
import { logStartup } from "~/lib/startup.server";

const ABORT_DELAY_MS = 5_000;

logStartup();

/**
 * Every HTML document (the page, a form POST's answer, the 404, error pages)
 * is rendered here, so this is where its security headers are set. The nonce
 * is fresh per response and reaches every script Remix and React write:
 * RemixServer passes it to <Scripts> via context and to
 * single fetch's streamed data scripts; React puts it on its own inline
 * streaming scripts; the module preload links get it on the way out.
 */
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  _loadContext: AppLoadContext,
) {
  const nonce = createNonce();
  applyHeaders(responseHeaders, documentHeadersFor(request, nonce));
  // The router refuses methods it does not know (OPTIONS, ...) with 405: say what is allowed.
  if (responseStatusCode === 405 && !responseHeaders.has("Allow"))
    responseHeaders.set("Allow", "GET, HEAD, POST");

  // Crawlers get the whole document at once; people get the shell as soon as it is ready.
  const waitForAll = isbot(request.headers.get("user-agent") ?? "") || remixContext.isSpaMode;

  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    // Gives up on content still streaming after the deadline. Cleared as soon as
    // everything is rendered, so a finished render is not kept alive by the timer.
    // Assigned once the render has started (it needs `abort`), read by the callbacks above it.
    // eslint-disable-next-line prefer-const
    let deadline: NodeJS.Timeout | undefined;
    const respond = () => {
      shellRendered = true;
      const body = createDocumentStream(nonce);
      const stream = createReadableStreamFromReadable(body);
      responseHeaders.set("Content-Type", "text/html; charset=utf-8");
      resolve(new Response(stream, { headers: responseHeaders, status: responseStatusCode }));
      pipe(body);
    };
    const { pipe, abort } = renderToPipeableStream(
      <NonceContext.Provider value={nonce}>
        <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY_MS} nonce={nonce} />
      </NonceContext.Provider>,
      {
        nonce,
        onShellReady() {
          if (!waitForAll) respond();
        },
        onAllReady() {
          clearTimeout(deadline);
          if (waitForAll) respond();
        },
        onShellError(error: unknown) {
          clearTimeout(deadline);
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          // Errors after the shell are reported by the error boundary; log them here too.
          if (shellRendered) console.error(error);
        },
      },
    );
    deadline = setTimeout(abort, ABORT_DELAY_MS + 1_000);
    deadline.unref();
  });
}

/** Single-fetch data (`*.data`) and redirects: never a document, so nothing may run in them. */
export const handleDataRequest: HandleDataRequestFunction = (response, { request }) => {
  const headers = nonDocumentHeadersFor(request);
  try {
    applyHeaders(response.headers, headers);
    return response;
  } catch {
    // A Response.redirect() has immutable headers: copy it.
    const copy = new Response(response.body, response);
    applyHeaders(copy.headers, headers);
    return copy;
  }
};
