#!/usr/bin/env node
// The ceiling of the throughput benchmark: a bare `node:http` server that answers every request
// with the same bytes and headers as the app's GET / (given as a JSON file: { headers, body in
// base64 }), from memory, with no routing, no middleware and no logging. It runs in its own
// process, like the app server, so that both share the machine with autocannon the same way.
// Prints "listening <port>" once ready; listens on 127.0.0.1 only.
import { readFileSync } from "node:fs";
import { createServer } from "node:http";

const { headers, body } = JSON.parse(readFileSync(process.argv[2], "utf8"));
const bytes = Buffer.from(body, "base64");

const server = createServer((req, res) => {
  req.resume();
  res.writeHead(200, headers);
  res.end(bytes);
});
server.keepAliveTimeout = 5_000;
server.listen(0, "127.0.0.1", () => process.stdout.write(`listening ${server.address().port}\n`));
process.on("SIGTERM", () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
