// Free TCP ports on 127.0.0.1 for the servers the tests and the benchmark start (their helpers,
// test/support/server-process.mjs and scripts/postgres.mjs, take them from here). Plain JavaScript,
// so that both can import it.
import { readFileSync } from "node:fs";
import { createServer } from "node:net";

/** Whether `port` (0: any) can be listened on at 127.0.0.1 now; the port it got, or null. */
function tryListen(port) {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once("error", (error) => (error.code === "EADDRINUSE" ? resolve(null) : reject(error)));
    server.listen(port, "127.0.0.1", () => {
      const address = server.address();
      if (address === null || typeof address === "string") return reject(new Error("no port"));
      server.close(() => resolve(address.port));
    });
  });
}

// Test files run side by side (decision 040). A port that was free a moment ago can be taken by
// another file before its server binds it, and a server restarted on its old address (the history
// test's instances) leaves it free meanwhile: once, another file's server answered an instance's
// /healthz. So each vitest worker (VITEST_POOL_ID, 1 to maxWorkers) takes its ports from a block of
// its own below the kernel's ephemeral range, where no `listen(0)` or outgoing connection of anyone
// else lands. Outside vitest (the benchmark), the kernel chooses.
const BLOCK_SIZE = 2_000;
const FIRST_BLOCK = 10_000;
let nextInBlock;

function ephemeralRange() {
  try {
    return readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/).map(Number);
  } catch {
    return [32768, 60999];
  }
}

/** A TCP port on 127.0.0.1 that was free a moment ago, of this test worker's own block. */
export async function freePort() {
  const pool = Number(process.env.VITEST_POOL_ID);
  if (!Number.isInteger(pool) || pool < 1) return tryListen(0);
  const start = FIRST_BLOCK + (pool - 1) * BLOCK_SIZE;
  const [ephemeralLow] = ephemeralRange();
  if (start + BLOCK_SIZE > ephemeralLow)
    throw new Error(
      `test worker ${pool}: ports ${start}-${start + BLOCK_SIZE - 1} reach the ephemeral range`,
    );
  nextInBlock ??= Math.floor(Math.random() * BLOCK_SIZE);
  for (let tries = 0; tries < BLOCK_SIZE; tries += 1) {
    const port = start + (nextInBlock % BLOCK_SIZE);
    nextInBlock += 1;
    if ((await tryListen(port)) !== null) return port;
  }
  throw new Error(`test worker ${pool}: no free port in ${start}-${start + BLOCK_SIZE - 1}`);
}
