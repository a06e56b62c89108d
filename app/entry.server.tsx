import type { AppLoadContext, EntryContext, HandleErrorFunction } from "@remix-run/node";
import { isRouteErrorResponse } from "@remix-run/react";

import { documentResponse } from "~/lib/document/document.server";

/**
 * Every HTML document is answered here (`~/lib/document/document.server`); other responses get
 * their headers from the server (server/app.ts).
 */
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  // The router refuses methods it does not know (OPTIONS, ...) with 405: say what is allowed.
  if (responseStatusCode === 405 && !responseHeaders.has("Allow"))
    responseHeaders.set("Allow", "GET, HEAD, POST");
  return documentResponse(request, responseStatusCode, responseHeaders, remixContext, loadContext);
}

/** A client error (status < 500) is already logged by the server's request line: no stack trace. */
export const handleError: HandleErrorFunction = (error, { request }) => {
  if (request.signal.aborted) return;
  if (isRouteErrorResponse(error) && error.status < 500) return;
  console.error(error);
};
