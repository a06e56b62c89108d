/** What the server (server/app.ts) tells loaders and actions beyond the request. */
declare module "@remix-run/node" {
  interface AppLoadContext {
    /** The path was not valid percent-encoding (`/%`): answer with the 400 page. */
    malformedPath?: boolean;
    /** The build's own request for a page it writes as a file: not a visitor. */
    prerender?: boolean;
    /** The contact form's action, made once per process, knowing the request's client. */
    contactAction?: (
      request: Request,
    ) => ReturnType<ReturnType<typeof import("~/lib/contact/action.server").createContactAction>>;
  }
}

export {};
