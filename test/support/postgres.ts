// Throwaway PostgreSQL servers for the tests: a fresh cluster (initdb) in a temporary folder, one
// `postgres` process that the test holds by its PID, listening on 127.0.0.1 only, on a free port.
// Test-only settings: no password (trust, loopback only) and no fsync (see SERVER_SETTINGS).
//
// A server left running is SIGKILLed when the test process exits (or gets SIGINT/SIGTERM/SIGHUP),
// and its folder deleted; one whose test process was SIGKILLed is reaped by the next
// startPostgres() (or `node scripts/postgres.mjs reap`).
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import {
  chmodSync,
  chownSync,
  closeSync,
  fstatSync,
  mkdtempSync,
  openSync,
  readSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";

import pg from "pg";
import { describe } from "vitest";

import {
  clusterBase,
  findPostgres,
  INSTALL_HINT,
  isAlive,
  killServerTree,
  OWNER_FILE,
  postgresRequired,
  reapOrphans,
  serverUser,
  TEMP_PREFIX,
} from "../../scripts/postgres.mjs";
import { freePort } from "./ports";

export interface PostgresServer {
  /** postgres://postgres@127.0.0.1:PORT/postgres (the superuser, no password) */
  url: string;
  port: number;
  /** The PID of the running `postgres` server process (the last one, once stopped). */
  pid: number;
  dataDir: string;
  /** The server's own log (its stdout and stderr). */
  logFile: string;
  /** a fresh empty database on this server, returns its URL */
  createDatabase(name?: string): Promise<string>;
  /** SIGSTOP/SIGCONT-free: stop the server (fast shutdown) keeping the data dir, and start it again on the same port */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** stop and delete the data dir */
  destroy(): Promise<void>;
}

const SUPERUSER = "postgres";
const HOST = "127.0.0.1";
const READY_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 30_000;

const SERVER_SETTINGS = {
  listen_addresses: HOST,
  max_connections: "200",
  // Test-only cluster: its data is thrown away, so never wait for the disk. Never do this on a real server.
  fsync: "off",
  synchronous_commit: "off",
  full_page_writes: "off",
};

export function postgresAvailable(): { ok: true; bin: string } | { ok: false; reason: string } {
  const found = findPostgres();
  if (!found.bin) return { ok: false, reason: found.reason };
  try {
    serverUser();
  } catch (error) {
    return { ok: false, reason: (error as Error).message };
  }
  return { ok: true, bin: found.bin };
}

/**
 * `describe` for suites that need PostgreSQL. Without it the suite is skipped behind a loud banner,
 * unless CI=true / REQUIRE_POSTGRES=1, where it fails instead.
 */
export function describeWithPostgres(name: string, fn: () => void): void {
  const found = postgresAvailable();
  if (found.ok) {
    describe(name, fn);
    return;
  }
  const message = `PostgreSQL is missing: ${found.reason}. Install it: ${INSTALL_HINT}`;
  if (postgresRequired()) {
    describe(name, () => {
      throw new Error(`${message} (required here: CI=true or REQUIRE_POSTGRES=1)`);
    });
    return;
  }
  const lines = [`SKIPPING "${name}"`, message, "(CI=true or REQUIRE_POSTGRES=1 make this a failure)"];
  const width = Math.max(...lines.map((line) => line.length)) + 4;
  const bar = "!".repeat(width);
  console.warn(["", bar, ...lines.map((line) => `! ${line.padEnd(width - 4)} !`), bar, ""].join("\n"));
  describe.skip(name, fn);
}

type Exit = { code: number | null; signal: NodeJS.Signals | null; error?: Error };

interface Running {
  child: ChildProcess;
  exited: Promise<Exit>;
  exit: Exit | null;
}

interface Cluster {
  root: string;
  dataDir: string;
  running: Running | null;
}

/** Clusters this process created and has not destroyed: what the exit handler cleans up. */
const live = new Set<Cluster>();
let handlersInstalled = false;

function cleanUpSync(): void {
  for (const cluster of live) {
    if (cluster.running && !cluster.running.exit && cluster.running.child.pid) {
      killServerTree(cluster.running.child.pid);
    }
    try {
      rmSync(cluster.root, { recursive: true, force: true, maxRetries: 5 });
    } catch {
      // Best effort: `node scripts/postgres.mjs reap` removes what is left.
    }
  }
  live.clear();
}

function installHandlers(): void {
  if (handlersInstalled) return;
  handlersInstalled = true;
  process.on("exit", cleanUpSync);
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    const onSignal = () => {
      cleanUpSync();
      // Nobody else handles this signal: die of it, as without this handler.
      if (process.listenerCount(signal) === 1) {
        process.removeListener(signal, onSignal);
        process.kill(process.pid, signal);
      }
    };
    process.on(signal, onSignal);
  }
}

/** Environment for initdb and postgres: ours without PG* variables (PGDATA, PGPORT...). */
function serverEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const key of Object.keys(env)) if (key.startsWith("PG")) delete env[key];
  return env;
}

function spawnAsServerUser(
  bin: string,
  command: string,
  args: string[],
  cwd: string,
  stdio: number | "pipe",
) {
  const user = serverUser();
  return spawn(join(bin, command), args, {
    cwd,
    env: serverEnv(),
    stdio: ["ignore", stdio, stdio],
    detached: false,
    ...(user ? { uid: user.uid, gid: user.gid } : {}),
  });
}

function runToEnd(bin: string, command: string, args: string[], cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawnAsServerUser(bin, command, args, cwd, "pipe");
    let output = "";
    child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(`${command} ${args.join(" ")} failed (${signal ?? `exit ${code}`}):\n${output}`));
    });
  });
}

function logTail(logFile: string, bytes = 4000): string {
  try {
    const fd = openSync(logFile, "r");
    try {
      const buffer = Buffer.alloc(bytes);
      const { size } = fstatSync(fd);
      const start = Math.max(0, size - bytes);
      const read = readSync(fd, buffer, 0, bytes, start);
      return buffer.subarray(0, read).toString();
    } finally {
      closeSync(fd);
    }
  } catch {
    return "(no log)";
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function connectionConfig(port: number, database: string): pg.ClientConfig {
  // Explicit everything, so no PGHOST/PGSSLMODE/... of the environment can send us elsewhere.
  return { host: HOST, port, user: SUPERUSER, database, ssl: false, connectionTimeoutMillis: 2_000 };
}

async function withClient<T>(
  port: number,
  database: string,
  run: (client: pg.Client) => Promise<T>,
): Promise<T> {
  const client = new pg.Client(connectionConfig(port, database));
  // A server that goes away emits "error" on idle clients: the failed call reports it instead.
  client.on("error", () => {});
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end().catch(() => {});
  }
}

function launch(bin: string, cluster: Cluster, port: number, logFile: string): Running {
  const socketDir = cluster.root;
  const settings: Record<string, string> = {
    ...SERVER_SETTINGS,
    // The socket path (folder + "/.s.PGSQL.<port>") must fit in 107 bytes; without one, TCP only.
    unix_socket_directories: socketDir.length + 20 < 107 ? socketDir : "",
  };
  const args = ["-D", cluster.dataDir, "-p", String(port)];
  for (const [key, value] of Object.entries(settings)) args.push("-c", `${key}=${value}`);
  const log = openSync(logFile, "a");
  let child: ChildProcess;
  try {
    // postgres itself, not pg_ctl: the PID we hold is the server's.
    child = spawnAsServerUser(bin, "postgres", args, cluster.root, log);
  } finally {
    closeSync(log);
  }
  // A forgotten server must not keep the test process alive: the exit handler kills it.
  child.unref();
  const running: Running = { child, exit: null, exited: Promise.resolve({ code: null, signal: null }) };
  running.exited = new Promise((resolve) => {
    child.once("error", (error) => {
      running.exit ??= { code: null, signal: null, error };
      resolve(running.exit);
    });
    child.once("exit", (code, signal) => {
      running.exit ??= { code, signal };
      resolve(running.exit);
    });
  });
  return running;
}

async function waitReady(running: Running, port: number, logFile: string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let lastError: unknown;
  for (;;) {
    if (running.exit) {
      const how = running.exit.error?.message ?? running.exit.signal ?? `exit code ${running.exit.code}`;
      throw new Error(
        `postgres ended (${how}) before accepting connections on port ${port}:\n${logTail(logFile)}`,
      );
    }
    try {
      await withClient(port, "postgres", (client) => client.query("SELECT 1"));
      return;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `postgres did not accept connections on ${HOST}:${port} within ${READY_TIMEOUT_MS / 1000} s ` +
          `(last error: ${(lastError as Error)?.message}):\n${logTail(logFile)}`,
      );
    }
    await sleep(50);
  }
}

/** Fast shutdown (SIGINT), then SIGKILL if the server is still there after STOP_TIMEOUT_MS. */
async function shutDown(running: Running): Promise<void> {
  const pid = running.child.pid;
  if (running.exit || pid === undefined) return;
  running.child.kill("SIGINT");
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<"timeout">(
    (resolve) => (timer = setTimeout(() => resolve("timeout"), STOP_TIMEOUT_MS)),
  );
  const result = await Promise.race([running.exited, timedOut]);
  clearTimeout(timer);
  if (result === "timeout") {
    killServerTree(pid);
    await running.exited;
  }
}

async function startOn(bin: string, cluster: Cluster, port: number, logFile: string): Promise<Running> {
  const running = launch(bin, cluster, port, logFile);
  cluster.running = running;
  try {
    await waitReady(running, port, logFile);
  } catch (error) {
    await shutDown(running);
    throw error;
  }
  return running;
}

function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** Starts a fresh PostgreSQL cluster on a free port of 127.0.0.1 and waits until it accepts connections. */
export async function startPostgres(): Promise<PostgresServer> {
  const found = postgresAvailable();
  if (!found.ok) throw new Error(`PostgreSQL is missing: ${found.reason}. Install it: ${INSTALL_HINT}`);
  const { bin } = found;
  installHandlers();
  reapOrphans();

  const root = mkdtempSync(join(clusterBase(), TEMP_PREFIX));
  writeFileSync(join(root, OWNER_FILE), `${process.pid}\n`);
  const cluster: Cluster = { root, dataDir: join(root, "data"), running: null };
  live.add(cluster);
  const logFile = join(root, "postgres.log");
  let port = 0;
  try {
    const user = serverUser();
    if (user) chownSync(root, user.uid, user.gid);
    chmodSync(root, 0o700);
    // --no-sync: test-only cluster, as fsync=off in SERVER_SETTINGS.
    await runToEnd(
      bin,
      "initdb",
      ["-D", cluster.dataDir, "-U", SUPERUSER, "--auth=trust", "--no-sync", "-E", "UTF8", "--locale=C"],
      root,
    );
    writeFileSync(
      join(cluster.dataDir, "pg_hba.conf"),
      "# Test-only cluster: no password, and nothing but loopback TCP (listen_addresses=127.0.0.1).\n" +
        "local all all trust\n" +
        "host  all all 127.0.0.1/32 trust\n",
    );
    // The free port may be taken between freePort() and postgres binding it: then try another.
    for (let attempt = 1; ; attempt++) {
      port = await freePort();
      try {
        await startOn(bin, cluster, port, logFile);
        break;
      } catch (error) {
        if (attempt >= 3 || !/could not bind|address already in use/i.test((error as Error).message))
          throw error;
      }
    }
  } catch (error) {
    live.delete(cluster);
    rmSync(root, { recursive: true, force: true, maxRetries: 5 });
    throw error;
  }

  let lastPid = cluster.running?.child.pid ?? 0;
  let destroyed = false;
  // stop/start/destroy run one after the other, even when called concurrently.
  let queue: Promise<unknown> = Promise.resolve();
  const serially = <T>(step: () => Promise<T>): Promise<T> => {
    const result = queue.then(step);
    queue = result.catch(() => {});
    return result;
  };
  const urlFor = (database: string) =>
    `postgres://${SUPERUSER}@${HOST}:${port}/${encodeURIComponent(database)}`;

  const stop = async () => {
    if (cluster.running) await shutDown(cluster.running);
    cluster.running = null;
  };

  return {
    url: urlFor("postgres"),
    port,
    get pid() {
      return lastPid;
    },
    dataDir: cluster.dataDir,
    logFile,
    async createDatabase(name = `test_${randomBytes(6).toString("hex")}`) {
      if (!/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(name)) throw new Error(`Not a plain database name: ${name}`);
      await withClient(port, "postgres", (client) =>
        // template0: nobody is ever connected to it, so CREATE DATABASE never waits on a copy source.
        client.query(`CREATE DATABASE ${quoteIdentifier(name)} TEMPLATE template0 ENCODING 'UTF8'`),
      );
      return urlFor(name);
    },
    stop: () => serially(stop),
    start: () =>
      serially(async () => {
        if (destroyed) throw new Error("This PostgreSQL server was destroyed.");
        if (cluster.running && !cluster.running.exit) return;
        const running = await startOn(bin, cluster, port, logFile);
        lastPid = running.child.pid ?? 0;
      }),
    destroy: () =>
      serially(async () => {
        if (destroyed) return;
        destroyed = true;
        await stop();
        live.delete(cluster);
        rmSync(root, { recursive: true, force: true, maxRetries: 5 });
      }),
  };
}

/** Whether a process (e.g. a server's `pid`) still exists. */
export { isAlive };
