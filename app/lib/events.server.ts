import { channel } from "node:diagnostics_channel";

/**
 * What the app tells whoever observes it (`server/metrics.ts`), without knowing who. Diagnostics
 * channels are process-wide by name, so the server bundle hears what the Remix build publishes
 * though each has its own copy of this module. Payloads: fixed sets only, never a visitor's text.
 */
export interface AppEvent<Payload> {
  publish(payload: Payload): void;
  /** Calls `listener` for every event published in this process. Returns an unsubscribe. */
  subscribe(listener: (payload: Payload) => void): () => void;
}

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
