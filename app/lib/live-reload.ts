/**
 * Live reload for `npm run dev` (server/dev.ts, decision 027): the page listens to a same-origin
 * event stream and reloads when the server says it has loaded a new build. No websocket, no
 * second port, nothing the Content-Security-Policy has to open.
 */
export const LIVE_RELOAD_PATH = "/__dev/reload";

/**
 * The first message names the build the page came from; any other reloads the page (after a
 * rebuild, or after the dev server was restarted: EventSource reconnects by itself).
 */
export const liveReloadSource = `(() => {
  let shown;
  const events = new EventSource(${JSON.stringify(LIVE_RELOAD_PATH)});
  events.onmessage = (event) => {
    if (shown === undefined) shown = event.data;
    else if (event.data !== shown) {
      events.close();
      location.reload();
    }
  };
})();`;
