/**
 * Live reload for `npm run dev` (decision 027): a same-origin event stream, so no websocket, no
 * second port, nothing the Content-Security-Policy has to open.
 */
export const LIVE_RELOAD_PATH = "/__dev/reload";

/** The first message names the page's build; any other reloads it (EventSource reconnects). */
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
