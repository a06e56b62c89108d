import { channel } from "node:diagnostics_channel";

/**
 * What the app tells whoever observes it, without knowing who: each part declares its own events
 * beside its code (`contact/events.server.ts`, `leads/events.server.ts`,
 * `document/events.server.ts`), and the metrics subscribe (`server/metrics.ts`); none of them
 * imports another for it. Node's diagnostics channels are process-wide by name, so the server
 * bundle hears what the Remix build publishes although each carries its own copy of a module.
 * Publishing with no subscriber costs nothing. Payloads carry values from fixed sets only: never
 * anything a visitor typed.
 */
export interface AppEvent<Payload> {
  publish(payload: Payload): void;
  /** Calls `listener` for every event published in this process. Returns an unsubscribe. */
  subscribe(listener: (payload: Payload) => void): () => void;
}

/** An event on the channel `site:<name>`. */
export function appEvent<Payload>(name: string): AppEvent<Payload> {
  const target = channel(`site:${name}`);
  return {
    publish(payload) {
      if (target.hasSubscribers) target.publish(payload);
    },
    subscribe(listener) {
      const handler = (message: unknown) => listener(message as Payload);
      target.subscribe(handler);
      return () => target.unsubscribe(handler);
    },
  };
}
