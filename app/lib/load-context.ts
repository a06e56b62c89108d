/** What the server (server/app.ts) tells loaders and actions beyond the request. */
declare module "@remix-run/node" {
  interface AppLoadContext {
    /** The path was not valid percent-encoding (`/%`): answer with the 400 page. */
    malformedPath?: boolean;
    /** The build's own request for a page it writes as a file (server/home-document.ts): not a visitor. */
    prerender?: boolean;
    /** The lead store, function, limits and alerts of this process (app/lib/leads/services.server.ts). */
    leads?: import("~/lib/leads/services.server").LeadServices;
    /** The peer address of the request's socket: the client itself when no proxy is trusted. */
    socketAddress?: string;
  }
}

export {};
