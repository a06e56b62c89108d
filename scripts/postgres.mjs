#!/usr/bin/env node
// The one place that knows where this machine's PostgreSQL server binaries are (Debian's
// `postgresql` package; nothing is downloaded), which user runs them, and that starts throwaway
// servers on them (startPostgres) for the tests (test/support/postgres.ts) and the bench.
//
// A throwaway server is a fresh cluster (initdb) in a temporary folder, one `postgres` process held
// by its PID, on a free port of 127.0.0.1, without password (trust, loopback only) or fsync. A
// server left running is SIGKILLed when the process that started it exits (or gets
// SIGINT/SIGTERM/SIGHUP), and its folder deleted; one whose process was SIGKILLed is reaped by the
// next startPostgres().
//
//   node scripts/postgres.mjs check   prints the binaries and the user that will run them (exit 1: missing)
import { execFile, execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, chownSync, closeSync, existsSync, mkdtempSync, openSync } from "node:fs";
import { readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

import { isExecutableFile } from "./executables.mjs";
import { freePort } from "./ports.mjs";

export const INSTALL_HINT = "apt-get install -y postgresql";
/** Every cluster lives in a temporary folder named so, which holds the PID of the process that owns it. */
const TEMP_PREFIX = "pg-test-";
const OWNER_FILE = "owner.pid";
const SUPERUSER = "postgres";
const HOST = "127.0.0.1";
const WAIT_MS = 30_000;
// A throwaway cluster's data is thrown away: never wait for the disk. Never on a real server.
const SERVER_SETTINGS = {
  listen_addresses: HOST,
  max_connections: "200",
  fsync: "off",
  synchronous_commit: "off",
  full_page_writes: "off",
};

const hasServerBinaries = (dir) => ["postgres", "initdb"].every((name) => isExecutableFile(join(dir, name)));

/** The folder that holds `postgres` and `initdb`: Debian's highest /usr/lib/postgresql/<version>/bin, else that of an `initdb` on the PATH. */
export function findPostgres(env = process.env) {
  const versions = existsSync("/usr/lib/postgresql") ? readdirSync("/usr/lib/postgresql") : [];
  const debian = versions
    .filter((version) => /^\d+(\.\d+)*$/.test(version))
    .sort((a, b) => Number.parseFloat(b) - Number.parseFloat(a))
    .map((version) => `/usr/lib/postgresql/${version}/bin`);
  const onPath = (env.PATH ?? "")
    .split(delimiter)
    .filter((dir) => dir && isExecutableFile(join(dir, "initdb")))
    .map((dir) => dirname(realpathSync(join(dir, "initdb"))));
  const bin = [...debian, ...onPath].find(hasServerBinaries);
  return bin
    ? { bin, reason: debian.includes(bin) ? `found ${bin}` : "initdb on the PATH" }
    : {
        bin: null,
        reason:
          "no PostgreSQL server binaries (postgres and initdb) in /usr/lib/postgresql/*/bin or the PATH",
      };
}

let serverUserCache;

/**
 * Who runs `initdb` and `postgres`, which both refuse to run as root: ourselves (`null`) unless we
 * are root, then the Debian package's `postgres` system user, else `nobody`.
 */
export function serverUser() {
  if (process.getuid?.() !== 0) return null;
  serverUserCache ??= lookUpServerUser();
  return serverUserCache;
}

function lookUpServerUser() {
  for (const user of ["postgres", "nobody"]) {
    try {
      const id = (flag) => Number(execFileSync("id", [flag, user], { encoding: "utf8", stdio: "pipe" }));
      const [uid, gid] = [id("-u"), id("-g")];
      if (uid !== 0 && Number.isInteger(uid) && Number.isInteger(gid)) return { user, uid, gid };
    } catch {
      // No such user: try the next one.
    }
  }
  throw new Error("Running as root, and neither a `postgres` nor a `nobody` user exists to run PostgreSQL.");
}

/** With CI=true or REQUIRE_POSTGRES=1 a missing PostgreSQL is a failure, not a skip. */
export const postgresRequired = (env = process.env) =>
  ["true", "1"].includes(env.CI ?? "") || ["true", "1"].includes(env.REQUIRE_POSTGRES ?? "");

/** Where clusters get their temporary folders: one the server user can reach when it is not us. */
const clusterBase = () => (serverUser() ? "/tmp" : tmpdir());

/** SIGKILLs a postmaster and its children (from /proc: children first, so none outlives it for long). */
function killServerTree(pid) {
  for (const entry of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      // pid (comm) state ppid ...: comm may hold spaces and parentheses, so split after the last ")".
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      if (Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === pid)
        process.kill(Number(entry), "SIGKILL");
    } catch {
      // The process ended meanwhile.
    }
  }
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // Already gone.
  }
}

/** Whether a process (e.g. a server's `pid`) still exists. */
export function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === "EPERM";
  }
}

/** Stops (SIGKILL) and deletes every cluster whose owning process is gone; those of live processes stay. */
function reapOrphans() {
  for (const base of new Set([clusterBase(), tmpdir(), "/tmp"])) {
    for (const name of readdirSync(base).filter((entry) => entry.startsWith(TEMP_PREFIX))) {
      const dir = join(base, name);
      try {
        const ownerFile = join(dir, OWNER_FILE);
        if (existsSync(ownerFile)) {
          if (isAlive(Number(readFileSync(ownerFile, "utf8")))) continue;
        } else if (Date.now() - statSync(dir).mtimeMs < 60_000) continue; // Being set up right now.
        const dataDir = join(dir, "data");
        const pidFile = join(dataDir, "postmaster.pid");
        const pid = existsSync(pidFile) ? Number(readFileSync(pidFile, "utf8").split("\n")[0]) : 0;
        // Only a process that really runs on this data dir: the PID may have been reused.
        const cmdline =
          pid > 0 && existsSync(`/proc/${pid}/cmdline`) ? readFileSync(`/proc/${pid}/cmdline`, "utf8") : "";
        if (cmdline.split("\0").includes(dataDir)) killServerTree(pid);
        rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
      } catch (error) {
        console.warn(`postgres: could not reap ${dir}: ${error instanceof Error ? error.message : error}`);
      }
    }
  }
}

/** Whether a throwaway server can be started here: the binaries, and a user to run them. */
export function postgresAvailable() {
  const found = findPostgres();
  if (!found.bin) return { ok: false, reason: found.reason };
  try {
    serverUser();
  } catch (error) {
    return { ok: false, reason: error.message };
  }
  return { ok: true, bin: found.bin };
}

/** Clusters this process created and has not destroyed: what the exit handler cleans up. */
const live = new Set();

function cleanUpSync() {
  for (const cluster of live) {
    const running = cluster.running;
    if (running && !running.exit && running.child.pid) killServerTree(running.child.pid);
    try {
      rmSync(cluster.root, { recursive: true, force: true, maxRetries: 5 });
    } catch {
      // Best effort: the next startPostgres() reaps what is left.
    }
  }
  live.clear();
}

function installHandlers() {
  if (process.listeners("exit").includes(cleanUpSync)) return;
  process.on("exit", cleanUpSync);
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
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

/** How initdb and postgres run: as the server user, in an environment without PG* variables (PGDATA, PGPORT...). */
function asServerUser(cwd) {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith("PG")));
  const user = serverUser();
  return { cwd, env, ...(user ? { uid: user.uid, gid: user.gid } : {}) };
}

const logTail = (logFile) => (existsSync(logFile) ? readFileSync(logFile, "utf8").slice(-4000) : "(no log)");

async function withClient(port, database, run) {
  // Loaded here, not at the top: `node scripts/postgres.mjs check` runs before `npm ci` (.ci/run).
  const { default: pg } = await import("pg");
  // Explicit everything, so no PGHOST/PGSSLMODE/... of the environment can send us elsewhere.
  const connection = {
    host: HOST,
    port,
    user: SUPERUSER,
    database,
    ssl: false,
    connectionTimeoutMillis: 2_000,
  };
  const client = new pg.Client(connection);
  // A server that goes away emits "error" on idle clients: the failed call reports it instead.
  client.on("error", () => {});
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end().catch(() => {});
  }
}

/** Starts postgres itself, not pg_ctl (the PID we hold is the server's), and waits until it accepts connections. */
async function startOn(bin, cluster, port) {
  // The socket path (folder + "/.s.PGSQL.<port>") must fit in 107 bytes; without one, TCP only.
  const settings = {
    ...SERVER_SETTINGS,
    unix_socket_directories: cluster.root.length + 20 < 107 ? cluster.root : "",
  };
  const args = ["-D", cluster.dataDir, "-p", String(port)];
  for (const [key, value] of Object.entries(settings)) args.push("-c", `${key}=${value}`);
  const log = openSync(cluster.logFile, "a");
  const child = spawn(join(bin, "postgres"), args, {
    ...asServerUser(cluster.root),
    stdio: ["ignore", log, log],
  });
  closeSync(log);
  // A forgotten server must not keep its owner alive: the exit handler kills it.
  child.unref();
  const running = { child, exit: null };
  running.exited = new Promise((resolveExit) => {
    child.once("error", (error) => resolveExit((running.exit ??= { error })));
    child.once("exit", (code, signal) => resolveExit((running.exit ??= { code, signal })));
  });
  cluster.running = running;
  for (const deadline = Date.now() + WAIT_MS; ; await new Promise((done) => setTimeout(done, 50))) {
    try {
      if (running.exit) {
        const how = running.exit.error?.message ?? running.exit.signal ?? `exit code ${running.exit.code}`;
        throw new Error(`postgres ended (${how}) before accepting connections on port ${port}`);
      }
      await withClient(port, "postgres", (client) => client.query("SELECT 1"));
      return running;
    } catch (error) {
      if (running.exit || Date.now() > deadline) {
        await shutDown(running);
        throw new Error(
          `postgres is not accepting connections on ${HOST}:${port} (${error.message}):\n${logTail(cluster.logFile)}`,
        );
      }
    }
  }
}

/** Fast shutdown (SIGINT), then SIGKILL if the server is still there after WAIT_MS. */
async function shutDown(running) {
  if (running.exit || running.child.pid === undefined) return;
  running.child.kill("SIGINT");
  let timer;
  const timedOut = new Promise((resolveTimeout) => (timer = setTimeout(resolveTimeout, WAIT_MS, "timeout")));
  if ((await Promise.race([running.exited, timedOut])) === "timeout") {
    killServerTree(running.child.pid);
    await running.exited;
  }
  clearTimeout(timer);
}

/** Starts a fresh PostgreSQL cluster on a free port of 127.0.0.1 and waits until it accepts connections. */
export async function startPostgres() {
  const found = postgresAvailable();
  if (!found.ok) throw new Error(`PostgreSQL is missing: ${found.reason}. Install it: ${INSTALL_HINT}`);
  const { bin } = found;
  installHandlers();
  reapOrphans();

  const root = mkdtempSync(join(clusterBase(), TEMP_PREFIX));
  writeFileSync(join(root, OWNER_FILE), `${process.pid}\n`);
  const cluster = { root, dataDir: join(root, "data"), logFile: join(root, "postgres.log"), running: null };
  live.add(cluster);
  let port = 0;
  try {
    const user = serverUser();
    if (user) chownSync(root, user.uid, user.gid);
    chmodSync(root, 0o700);
    // --no-sync: a throwaway cluster, as fsync=off in SERVER_SETTINGS.
    const initdb = [
      "-D",
      cluster.dataDir,
      "-U",
      SUPERUSER,
      "--auth=trust",
      "--no-sync",
      "-E",
      "UTF8",
      "--locale=C",
    ];
    await promisify(execFile)(join(bin, "initdb"), initdb, asServerUser(root));
    writeFileSync(
      join(cluster.dataDir, "pg_hba.conf"),
      "# Throwaway cluster: no password, and nothing but loopback TCP (listen_addresses=127.0.0.1).\n" +
        "local all all trust\nhost  all all 127.0.0.1/32 trust\n",
    );
    // The free port may be taken between freePort() and postgres binding it: then try another.
    for (let attempt = 1; ; attempt++) {
      port = await freePort();
      try {
        await startOn(bin, cluster, port);
        break;
      } catch (error) {
        if (attempt >= 3 || !/could not bind|address already in use/i.test(error.message)) throw error;
      }
    }
  } catch (error) {
    live.delete(cluster);
    rmSync(root, { recursive: true, force: true, maxRetries: 5 });
    throw error;
  }

  let lastPid = cluster.running.child.pid ?? 0;
  let destroyed = false;
  // stop/start/destroy run one after the other, even when called concurrently.
  let queue = Promise.resolve();
  const serially = (step) => {
    const result = queue.then(step);
    queue = result.catch(() => {});
    return result;
  };
  const urlFor = (database) => `postgres://${SUPERUSER}@${HOST}:${port}/${encodeURIComponent(database)}`;
  const stop = async () => {
    if (cluster.running) await shutDown(cluster.running);
    cluster.running = null;
  };

  return {
    /** postgres://postgres@127.0.0.1:PORT/postgres (the superuser, no password) */
    url: urlFor("postgres"),
    port,
    /** The PID of the running `postgres` server process (the last one, once stopped). */
    get pid() {
      return lastPid;
    },
    dataDir: cluster.dataDir,
    /** A fresh empty database on this server: its URL. */
    async createDatabase(name = `test_${randomBytes(6).toString("hex")}`) {
      if (!/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(name)) throw new Error(`Not a plain database name: ${name}`);
      // template0: nobody is ever connected to it, so CREATE DATABASE never waits on a copy source.
      const sql = `CREATE DATABASE "${name}" TEMPLATE template0 ENCODING 'UTF8'`;
      await withClient(port, "postgres", (client) => client.query(sql));
      return urlFor(name);
    },
    /** Stops the server (fast shutdown), keeping its data dir, to be started again on the same port. */
    stop: () => serially(stop),
    start: () =>
      serially(async () => {
        if (destroyed) throw new Error("This PostgreSQL server was destroyed.");
        if (cluster.running && !cluster.running.exit) return;
        lastPid = (await startOn(bin, cluster, port)).child.pid ?? 0;
      }),
    /** Stops the server and deletes its data dir. */
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

// `node scripts/postgres.mjs check` (.ci/run): exit 0 when a throwaway server can be started here.
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (process.argv[2] !== "check") {
    console.error("Usage: node scripts/postgres.mjs check");
    process.exit(2);
  }
  const found = findPostgres();
  if (!found.bin) {
    console.error(`PostgreSQL: ${found.reason}. Install it: ${INSTALL_HINT}`);
    process.exit(1);
  }
  const version = execFileSync(join(found.bin, "postgres"), ["--version"], { encoding: "utf8" }).trim();
  const user = serverUser();
  console.log(`PostgreSQL: ${found.bin} (${found.reason}) ${version}`);
  console.log(`Test clusters run as: ${user ? `${user.user} (uid ${user.uid})` : "the current user"}`);
  console.log(`Test clusters live in: ${clusterBase()}/${TEMP_PREFIX}*`);
}
