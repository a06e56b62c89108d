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

// The Fetch standard's "bad ports" (https://fetch.spec.whatwg.org/#port-blocking): Node's fetch and
// every browser refuse them before connecting ("bad port", ERR_UNSAFE_PORT), so a server listening
// on one is unreachable for the tests. 10080 lies in the first worker's block: a CI run once waited
// 30 s for a server on it that was up all along. test/scripts/ports.test.ts holds this list to
// what Node's fetch refuses.
const FETCH_BAD_PORTS = new Set([
  1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104,
  109, 110, 111, 113, 115, 117, 119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515,
  526, 530, 531, 532, 540, 548, 554, 556, 563, 587, 601, 636, 989, 990, 993, 995, 1719, 1720, 1723, 2049,
  3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080,
]);

/** Whether fetch and the browsers may connect to `port` (the Fetch standard's port blocking). */
export const fetchAllows = (port) => !FETCH_BAD_PORTS.has(port);

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
  if (!Number.isInteger(pool) || pool < 1) {
    // The kernel's ephemeral range lies above every bad port; checked all the same.
    for (;;) {
      const port = await tryListen(0);
      if (fetchAllows(port)) return port;
    }
  }
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
    if (fetchAllows(port) && (await tryListen(port)) !== null) return port;
  }
  throw new Error(`test worker ${pool}: no free port in ${start}-${start + BLOCK_SIZE - 1}`);
}
