import { createRequestHandler, type ServerBuild } from "@remix-run/node";

/** The same build without one route: every URL it matched now falls to whatever matches next (the 404). */
export function withoutRoute(build: ServerBuild, routeId: string): ServerBuild {
  const routes = { ...build.routes };
  delete routes[routeId];
  // The browser manifest too: the document renderer pairs each of its routes with a module.
  const manifestRoutes = { ...build.assets.routes };
  delete manifestRoutes[routeId];
  return { ...build, routes, assets: { ...build.assets, routes: manifestRoutes } };
}

/**
 * Answers a request exactly as the app would if the route `routeId` did not exist: same status,
 * headers and document (the splat route's 404 page, with its own nonce), same log line. For a
 * route that must not reveal itself to whoever lacks access (decision 024).
 */
export function answerAsIfAbsent(build: ServerBuild, routeId: string) {
  let handler: ReturnType<typeof createRequestHandler> | undefined;
  return (request: Request): Promise<Response> => {
    handler ??= createRequestHandler(withoutRoute(build, routeId), build.mode);
    return handler(request);
  };
}
