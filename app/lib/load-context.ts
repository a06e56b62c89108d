/** What the server (server/app.ts) tells loaders and actions beyond the request. */
declare module "@remix-run/node" {
  interface AppLoadContext {
    /** The path was not valid percent-encoding (`/%`): answer with the 400 page. */
    malformedPath?: boolean;
    /** The build's own request for a page it writes as a file (server/home-document.ts): not a visitor. */
    prerender?: boolean;
    /** The contact form's action, made once with this process's lead services, knowing the request's client. */
    contactAction?: (
      request: Request,
    ) => ReturnType<ReturnType<typeof import("~/lib/contact/action.server").createContactAction>>;
  }
}

export {};
