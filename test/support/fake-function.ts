import { createServer, type IncomingHttpHeaders, type Server } from "node:http";

import { freePort } from "./ports";

/** How the stand-in for the Supabase function `send-contact-email` answers. */
export type FakeFunctionMode =
  | { kind: "success" }
  /** An HTTP error, after `delayMs` when given. */
  | { kind: "status"; status: number; body?: string; delayMs?: number }
  /** Supabase's relay failing in front of the function (`x-relay-error: true`). */
  | { kind: "relay" }
  | { kind: "garbage" }
  /** A 200 that is not the function's answer: a portal's or a proxy's HTML page. */
  | { kind: "page" }
  | { kind: "slow"; delayMs: number }
  | { kind: "hang" }
  /** The whole request read, then the connection closed without an answer. */
  | { kind: "drop" }
  /** Chooses per request, from the JSON body (e.g. fail one message, accept the others). */
  | { kind: "per-request"; choose: (json: unknown) => Exclude<FakeFunctionMode, { kind: "per-request" }> };

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  json: unknown;
}

export interface FakeFunction {
  url: string;
  port: number;
  requests: ReceivedRequest[];
  setMode(mode: FakeFunctionMode): void;
  reset(): void;
  close(): Promise<void>;
}

/** On `port` when given (a test that first had nothing answer there). */
export async function startFakeFunction(port?: number): Promise<FakeFunction> {
  port ??= await freePort();
  let mode: FakeFunctionMode = { kind: "success" };
  const requests: ReceivedRequest[] = [];
  const hanging = new Set<() => void>();

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      let json: unknown = undefined;
      try {
        json = JSON.parse(body);
      } catch {
        json = undefined;
      }
      const path = req.url ?? "/";
      if (req.method === "OPTIONS") {
        res.writeHead(204).end();
        return;
      }
      if (path !== "/functions/v1/send-contact-email") {
        res.writeHead(404, { "content-type": "application/json" }).end('{"error":"not found"}');
        return;
      }
      requests.push({ method: req.method ?? "", path, headers: req.headers, body, json });
      const current = mode.kind === "per-request" ? mode.choose(json) : mode;
      /** close() cuts a pending answer short. */
      const answerAfter = (delayMs: number | undefined, answer: () => void) => {
        if (!delayMs) return answer();
        const timer = setTimeout(() => {
          hanging.delete(release);
          answer();
        }, delayMs);
        const release = () => {
          clearTimeout(timer);
          res.destroy();
        };
        hanging.add(release);
      };
      switch (current.kind) {
        case "success":
          res.writeHead(200, { "content-type": "application/json" }).end('{"success":true}');
          return;
        case "status":
          answerAfter(current.delayMs, () =>
            res
              .writeHead(current.status, { "content-type": "application/json" })
              .end(current.body ?? '{"error":"function failed"}'),
          );
          return;
        case "relay":
          res
            .writeHead(502, { "content-type": "application/json", "x-relay-error": "true" })
            .end('{"error":"relay error"}');
          return;
        case "garbage":
          res.writeHead(200, { "content-type": "application/json" }).end("\u0000<html>not json");
          return;
        case "page":
          res
            .writeHead(200, { "content-type": "text/html" })
            .end("<html><body>Welcome to the portal</body></html>");
          return;
        case "slow":
          answerAfter(current.delayMs, () =>
            res.writeHead(200, { "content-type": "application/json" }).end('{"success":true}'),
          );
          return;
        case "drop":
          res.socket?.destroy();
          return;
        case "hang": {
          const release = () => res.destroy();
          hanging.add(release);
          return;
        }
      }
    });
  });

  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    setMode(next) {
      mode = next;
    },
    reset() {
      mode = { kind: "success" };
      requests.length = 0;
      for (const release of hanging) release();
      hanging.clear();
    },
    async close() {
      for (const release of hanging) release();
      hanging.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
