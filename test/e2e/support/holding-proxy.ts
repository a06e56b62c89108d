/**
 * A proxy on 127.0.0.1 in front of the app server that holds the build's scripts until `release`, so
 * a test acts on the server's page before JavaScript takes over and lets hydration happen when it
 * chooses, in any engine (WebKitWebDriver has no network interception, decision 035).
 * Everything else passes through at once, untouched: the page's origin is the proxy's. One proxy
 * per test: the build's files are cached for a year, and a new port is a new origin, so no test
 * meets scripts a previous one left in the browser's cache.
 */
import { EventEmitter, once } from "node:events";
import { createServer, request, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** The build's JavaScript (modules, preloads, lazily imported chunks): `/build/…/*.js`. */
export const isBuildScript = (path: string): boolean => {
  const pathname = path.split("?")[0]!;
  return pathname.startsWith("/build/") && pathname.endsWith(".js");
};

export interface HoldingProxy {
  /** The proxy's origin, to open pages at. */
  readonly url: string;
  /** Sends every held request on, and no longer holds. */
  release(): void;
  held(): number;
  /** Resolves once a script request is held (at once if one is); rejects after `timeoutMs`. */
  whenHeld(timeoutMs?: number): Promise<void>;
  /** Resolves once a path matching `pattern` has been answered; rejects after `timeoutMs`. */
  whenServed(pattern: RegExp, timeoutMs?: number): Promise<void>;
  /** Resolves once nothing has been asked or answered for `ms` and no request is open. */
  quiet(ms: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startHoldingProxy(target: string): Promise<HoldingProxy> {
  const upstream = new URL(target);
  let holding = true;
  const waiting: (() => void)[] = [];
  const served: string[] = [];
  let open = 0;
  let lastActivity = Date.now();
  /** Says "change" whenever a request is held or answered: `whenHeld` and `whenServed` look again. */
  const changes = new EventEmitter();
  const changed = () => changes.emit("change");
  async function until(done: () => boolean, what: string, timeoutMs: number): Promise<void> {
    const signal = AbortSignal.timeout(timeoutMs);
    while (!done())
      await once(changes, "change", { signal }).catch(() => {
        throw new Error(`proxy: no ${what} within ${timeoutMs} ms (served: ${served.join(", ")})`);
      });
  }

  const forward = (req: IncomingMessage, res: ServerResponse) => {
    const path = req.url ?? "/";
    const outgoing = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path,
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.statusMessage, answer.headers);
        answer.pipe(res);
        answer.on("end", () => {
          served.push(path);
          changed();
        });
      },
    );
    outgoing.on("error", (error) => {
      if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" });
      res.end(`proxy: ${String(error)}`);
    });
    req.pipe(outgoing);
  };

  const server = createServer((req, res) => {
    open += 1;
    lastActivity = Date.now();
    res.on("close", () => {
      open -= 1;
      lastActivity = Date.now();
    });
    if (holding && isBuildScript(req.url ?? "/")) {
      // Keep the request's body (none for a GET) flowing into the paused request until then.
      req.pause();
      waiting.push(() => {
        req.resume();
        forward(req, res);
      });
      changed();
      return;
    }
    forward(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    release() {
      holding = false;
      for (const send of waiting.splice(0)) send();
    },
    held: () => waiting.length,
    whenHeld: (timeoutMs = 15_000) => until(() => waiting.length > 0, "script request held", timeoutMs),
    whenServed: (pattern, timeoutMs = 15_000) =>
      until(() => served.some((path) => pattern.test(path)), `${String(pattern)} answered`, timeoutMs),
    async quiet(ms, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      while (open > 0 || Date.now() - lastActivity < ms) {
        if (Date.now() > deadline)
          throw new Error(`proxy: still busy after ${timeoutMs} ms (${open} open, ${waiting.length} held)`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
