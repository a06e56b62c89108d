#!/usr/bin/env node
// The ceiling of the load section: a bare `node:http` server answering every request with the same
// bytes and headers (its argument: { headers, body in base64 } as JSON) from memory, with no routing,
// middleware or logging. Prints "listening <port>" once ready; listens on 127.0.0.1 only.
import { createServer } from "node:http";

const { headers, body } = JSON.parse(process.argv[2]);
const bytes = Buffer.from(body, "base64");
// GETs only: no request body to read.
const server = createServer((_req, res) => res.writeHead(200, headers).end(bytes));
server.keepAliveTimeout = 5_000;
server.listen(0, "127.0.0.1", () => process.stdout.write(`listening ${server.address().port}\n`));
process.on("SIGTERM", () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
