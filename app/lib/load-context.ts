/** What the server (server/app.ts) tells loaders and actions beyond the request. */
declare module "@remix-run/node" {
  interface AppLoadContext {
    /** The path was not valid percent-encoding (`/%`): answer with the 400 page. */
    malformedPath?: boolean;
    /** The server's own request for a cached page at start (server/warm-up.ts): not a visitor. */
    warmUp?: boolean;
  }
}

export {};
