/**
 * An HTTP proxy on 127.0.0.1 that records which hosts a browser tried to reach and refuses every
 * request (a CONNECT names its host) with 502. Sessions reach 127.0.0.1 directly, so the app is
 * unaffected. A proxy works in any engine: WebKitWebDriver has no network interception (decision 035).
 */
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordingProxy {
  /** `http://127.0.0.1:<port>`, for the browser's proxy setting. */
  readonly url: string;
  /** Every host a request was attempted to, in order, with repeats. */
  hosts(): string[];
  /** Resolves with the hosts once one from the `from`th on matches `pattern`; rejects after `timeoutMs`. */
  waitForHost(pattern: RegExp, options?: { from?: number; timeoutMs?: number }): Promise<string[]>;
  close(): Promise<void>;
}

/** The host of a CONNECT's `host:port`, or of a proxied request's absolute URL. */
export function targetHost(request: Pick<IncomingMessage, "method" | "url">): string {
  const url = request.url ?? "";
  if (request.method === "CONNECT") return url.replace(/:\d+$/, "").replace(/^\[|\]$/g, "");
  try {
    return new URL(url).hostname;
  } catch {
    return url;
  }
}

export async function startRecordingProxy(): Promise<RecordingProxy> {
  const seen: string[] = [];
  const waiters = new Set<() => void>();
  const record = (host: string) => {
    seen.push(host);
    for (const wake of waiters) wake();
  };
  const server = createServer((request, response) => {
    record(targetHost(request));
    response.writeHead(502, { connection: "close" }).end();
  });
  server.on("connect", (request: IncomingMessage, socket) => {
    record(targetHost(request));
    socket.end("HTTP/1.1 502 Bad Gateway\r\nConnection: close\r\n\r\n");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hosts: () => [...seen],
    waitForHost(pattern, { from = 0, timeoutMs = 15_000 } = {}) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (!seen.slice(from).some((host) => pattern.test(host))) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve([...seen]);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(
            new Error(
              `no request to a host matching ${pattern} within ${timeoutMs} ms (seen: ${seen.join(", ") || "none"})`,
            ),
          );
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
