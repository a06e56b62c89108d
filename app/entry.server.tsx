import type { AppLoadContext, EntryContext, HandleErrorFunction } from "@remix-run/node";
import { isRouteErrorResponse } from "@remix-run/react";

import { documentResponse } from "~/lib/document/document.server";

/**
 * Every HTML document (the page, a form POST's answer, the 404, error pages) is answered here;
 * how it is rendered, finished, secured and compressed is in `~/lib/document/document.server`.
 * Every other response (data, resource routes, redirects) gets its security and caching headers
 * from the server (server/app.ts, `~/lib/security/headers.server`).
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

/**
 * What Remix reports from loaders, actions and rendering. A client error (a data request for a
 * route without a loader, a method a route does not take: status < 500) is the client's mistake,
 * already logged by the server's request line with its status and path: no stack trace for it.
 */
export const handleError: HandleErrorFunction = (error, { request }) => {
  if (request.signal.aborted) return;
  if (isRouteErrorResponse(error) && error.status < 500) return;
  console.error(error);
};
