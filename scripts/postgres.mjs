#!/usr/bin/env node
// The one place that knows where this machine's PostgreSQL server binaries are, which user runs
// them, and that starts throwaway servers on them (startPostgres): the tests (test/support/postgres.ts),
// the benchmark and this CLI use it; the types are in postgres.d.mts. Nothing is downloaded:
// Debian's `postgresql` package, or whatever POSTGRES_BIN_DIR names.
//
// A throwaway server is a fresh cluster (initdb) in a temporary folder, one `postgres` process held
// by its PID, on a free port of 127.0.0.1, without password (trust, loopback only) or fsync. A
// server left running is SIGKILLed when the process that started it exits (or gets
// SIGINT/SIGTERM/SIGHUP), and its folder deleted; one whose process was SIGKILLed is reaped by the
// next startPostgres().
//
//   node scripts/postgres.mjs check   prints the binaries and the user that will run them (exit 1: missing)
//   node scripts/postgres.mjs reap    stops and deletes test clusters whose test process died
import { execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, chownSync, closeSync, existsSync, mkdtempSync, openSync } from "node:fs";
import { readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

import { isExecutableFile } from "./executables.mjs";
import { freePort } from "./ports.mjs";

export const INSTALL_HINT = "apt-get install -y postgresql";
/** Every test cluster lives in a temporary folder whose name starts with this. */
export const TEMP_PREFIX = "pg-test-";
/** The file, in that folder, that holds the PID of the process that owns the cluster. */
export const OWNER_FILE = "owner.pid";

const SUPERUSER = "postgres";
const HOST = "127.0.0.1";
const READY_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 30_000;
// Throwaway cluster: its data is thrown away, so never wait for the disk. Never on a real server.
const SERVER_SETTINGS = {
  listen_addresses: HOST,
  max_connections: "200",
  fsync: "off",
  synchronous_commit: "off",
  full_page_writes: "off",
};

const hasServerBinaries = (dir) => ["postgres", "initdb"].every((name) => isExecutableFile(join(dir, name)));

function pgConfigBinDir(env) {
  try {
    const options = { encoding: "utf8", env, stdio: ["ignore", "pipe", "ignore"] };
    return execFileSync("pg_config", ["--bindir"], options).trim();
  } catch {
    return null;
  }
}

/**
 * The folder that holds both `postgres` and `initdb`: POSTGRES_BIN_DIR when set, else Debian's
 * highest /usr/lib/postgresql/<version>/bin, else `pg_config --bindir` (libpq-dev may install it
 * without a server), else the real folder of an `initdb` on the PATH (it may be a symlink).
 */
export function findPostgres(env = process.env) {
  const override = env.POSTGRES_BIN_DIR?.trim();
  if (override)
    return hasServerBinaries(override)
      ? { bin: resolve(override), reason: `POSTGRES_BIN_DIR=${override}` }
      : { bin: null, reason: `POSTGRES_BIN_DIR=${override} does not hold both postgres and initdb` };
  const versions = existsSync("/usr/lib/postgresql") ? readdirSync("/usr/lib/postgresql") : [];
  for (const version of versions
    .filter((v) => /^\d+(\.\d+)*$/.test(v))
    .sort((a, b) => Number.parseFloat(b) - Number.parseFloat(a))) {
    const dir = `/usr/lib/postgresql/${version}/bin`;
    if (hasServerBinaries(dir)) return { bin: dir, reason: `found ${dir}` };
  }
  const configured = pgConfigBinDir(env);
  if (configured && hasServerBinaries(configured)) return { bin: configured, reason: "pg_config --bindir" };
  for (const dir of (env.PATH ?? "").split(delimiter)) {
    if (!dir || !isExecutableFile(join(dir, "initdb"))) continue;
    const real = dirname(realpathSync(join(dir, "initdb")));
    if (hasServerBinaries(real)) return { bin: real, reason: `initdb on the PATH (${join(dir, "initdb")})` };
  }
  return {
    bin: null,
    reason:
      "no PostgreSQL server binaries (postgres and initdb) in /usr/lib/postgresql/*/bin, pg_config --bindir " +
      "or the PATH, and POSTGRES_BIN_DIR is unset",
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
      const id = (flag) =>
        Number(execFileSync("id", [flag, user], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }));
      const [uid, gid] = [id("-u"), id("-g")];
      if (uid !== 0 && Number.isInteger(uid) && Number.isInteger(gid)) return { user, uid, gid };
    } catch {
      // No such user: try the next one.
    }
  }
  throw new Error("Running as root, and neither a `postgres` nor a `nobody` user exists to run PostgreSQL.");
}

/** With CI=true or REQUIRE_POSTGRES=1 a missing PostgreSQL is a failure, not a skip. */
export function postgresRequired(env = process.env) {
  return ["true", "1"].includes(env.CI ?? "") || ["true", "1"].includes(env.REQUIRE_POSTGRES ?? "");
}

/** Whether every folder from `/` down to `path` lets other users through (the server user must). */
function reachableByOthers(path) {
  try {
    for (let current = realpathSync(path); ; current = dirname(current)) {
      if ((statSync(current).mode & 0o001) === 0) return false;
      if (dirname(current) === current) return true;
    }
  } catch {
    return false;
  }
}

/** Where test clusters get their temporary folders: os.tmpdir(), else /tmp when the server user could not reach it. */
export function clusterBase() {
  const base = tmpdir();
  return serverUser() === null || reachableByOthers(base) ? base : "/tmp";
}

/** PIDs of the direct children of `pid` (a postmaster's backends and workers), from /proc. */
export function childPids(pid) {
  const children = [];
  for (const entry of existsSync("/proc") ? readdirSync("/proc") : []) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      // pid (comm) state ppid ...: comm may hold spaces and parentheses, so split after the last ")".
      if (Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === pid) children.push(Number(entry));
    } catch {
      // The process ended meanwhile.
    }
  }
  return children;
}

function kill(pid, signal) {
  try {
    process.kill(pid, signal);
  } catch {
    // Already gone.
  }
}

/** SIGKILLs a postmaster and its children (children first, so none outlives it for long). */
export function killServerTree(pid) {
  for (const child of childPids(pid)) kill(child, "SIGKILL");
  kill(pid, "SIGKILL");
}

export function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === "EPERM";
  }
}

/**
 * Stops (SIGKILL) and deletes every test cluster whose owning process is gone (a test process
 * that was itself SIGKILLed). Clusters of live processes are left alone. Returns the folders removed.
 */
export function reapOrphans() {
  const removed = [];
  for (const base of new Set([clusterBase(), tmpdir(), "/tmp"])) {
    const names = existsSync(base) ? readdirSync(base).filter((name) => name.startsWith(TEMP_PREFIX)) : [];
    for (const name of names) {
      const dir = join(base, name);
      try {
        const ownerFile = join(dir, OWNER_FILE);
        if (existsSync(ownerFile)) {
          if (isAlive(Number(readFileSync(ownerFile, "utf8").trim()))) continue;
        } else if (Date.now() - statSync(dir).mtimeMs < 60_000) continue; // Being set up right now.
        const dataDir = join(dir, "data");
        const pidFile = join(dataDir, "postmaster.pid");
        if (existsSync(pidFile)) {
          const pid = Number(readFileSync(pidFile, "utf8").split("\n")[0]);
          // Only a process that really runs on this data dir: the PID may have been reused.
          const cmdline = existsSync(`/proc/${pid}/cmdline`)
            ? readFileSync(`/proc/${pid}/cmdline`, "utf8")
            : "";
          if (pid > 0 && cmdline.split("\0").includes(dataDir)) killServerTree(pid);
        }
        rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
        removed.push(dir);
      } catch (error) {
        console.warn(`postgres: could not reap ${dir}: ${error instanceof Error ? error.message : error}`);
      }
    }
  }
  return removed;
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
let handlersInstalled = false;

function cleanUpSync() {
  for (const cluster of live) {
    const running = cluster.running;
    if (running && !running.exit && running.child.pid) killServerTree(running.child.pid);
    try {
      rmSync(cluster.root, { recursive: true, force: true, maxRetries: 5 });
    } catch {
      // Best effort: `node scripts/postgres.mjs reap` removes what is left.
    }
  }
  live.clear();
}

function installHandlers() {
  if (handlersInstalled) return;
  handlersInstalled = true;
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

/** initdb or postgres as the server user, in an environment without PG* variables (PGDATA, PGPORT...). */
function spawnAsServerUser(bin, command, args, cwd, stdio) {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith("PG")));
  const user = serverUser();
  return spawn(join(bin, command), args, {
    cwd,
    env,
    stdio: ["ignore", stdio, stdio],
    ...(user ? { uid: user.uid, gid: user.gid } : {}),
  });
}

function runToEnd(bin, command, args, cwd) {
  return new Promise((resolveRun, reject) => {
    const child = spawnAsServerUser(bin, command, args, cwd, "pipe");
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("error", reject);
    child.on("close", (code, signal) =>
      code === 0
        ? resolveRun()
        : reject(new Error(`${command} ${args.join(" ")} failed (${signal ?? `exit ${code}`}):\n${output}`)),
    );
  });
}

const logTail = (logFile) => (existsSync(logFile) ? readFileSync(logFile, "utf8").slice(-4000) : "(no log)");

async function withClient(port, database, run) {
  // Loaded here, not at the top: `node scripts/postgres.mjs check` runs before `npm ci` (.ci/run).
  const { default: pg } = await import("pg");
  // Explicit everything, so no PGHOST/PGSSLMODE/... of the environment can send us elsewhere.
  const client = new pg.Client({
    host: HOST,
    port,
    user: SUPERUSER,
    database,
    ssl: false,
    connectionTimeoutMillis: 2_000,
  });
  // A server that goes away emits "error" on idle clients: the failed call reports it instead.
  client.on("error", () => {});
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end().catch(() => {});
  }
}

/** postgres itself, not pg_ctl: the PID we hold is the server's. */
function launch(bin, cluster, port, logFile) {
  const settings = {
    ...SERVER_SETTINGS,
    // The socket path (folder + "/.s.PGSQL.<port>") must fit in 107 bytes; without one, TCP only.
    unix_socket_directories: cluster.root.length + 20 < 107 ? cluster.root : "",
  };
  const args = ["-D", cluster.dataDir, "-p", String(port)];
  for (const [key, value] of Object.entries(settings)) args.push("-c", `${key}=${value}`);
  const log = openSync(logFile, "a");
  let child;
  try {
    child = spawnAsServerUser(bin, "postgres", args, cluster.root, log);
  } finally {
    closeSync(log);
  }
  // A forgotten server must not keep its owner alive: the exit handler kills it.
  child.unref();
  const running = { child, exit: null };
  running.exited = new Promise((resolveExit) => {
    child.once("error", (error) => resolveExit((running.exit ??= { code: null, signal: null, error })));
    child.once("exit", (code, signal) => resolveExit((running.exit ??= { code, signal })));
  });
  return running;
}

async function waitReady(running, port, logFile) {
  const deadline = Date.now() + READY_TIMEOUT_MS;
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
      if (Date.now() > deadline)
        throw new Error(
          `postgres did not accept connections on ${HOST}:${port} within ${READY_TIMEOUT_MS / 1000} s ` +
            `(last error: ${error.message}):\n${logTail(logFile)}`,
        );
    }
    await new Promise((resolveSleep) => setTimeout(resolveSleep, 50));
  }
}

/** Fast shutdown (SIGINT), then SIGKILL if the server is still there after STOP_TIMEOUT_MS. */
async function shutDown(running) {
  const pid = running.child.pid;
  if (running.exit || pid === undefined) return;
  running.child.kill("SIGINT");
  let timer;
  const timedOut = new Promise(
    (resolveTimeout) => (timer = setTimeout(resolveTimeout, STOP_TIMEOUT_MS, "timeout")),
  );
  const result = await Promise.race([running.exited, timedOut]);
  clearTimeout(timer);
  if (result === "timeout") {
    killServerTree(pid);
    await running.exited;
  }
}

async function startOn(bin, cluster, port, logFile) {
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

/** Starts a fresh PostgreSQL cluster on a free port of 127.0.0.1 and waits until it accepts connections. */
export async function startPostgres() {
  const found = postgresAvailable();
  if (!found.ok) throw new Error(`PostgreSQL is missing: ${found.reason}. Install it: ${INSTALL_HINT}`);
  const { bin } = found;
  installHandlers();
  reapOrphans();

  const root = mkdtempSync(join(clusterBase(), TEMP_PREFIX));
  writeFileSync(join(root, OWNER_FILE), `${process.pid}\n`);
  const cluster = { root, dataDir: join(root, "data"), running: null };
  live.add(cluster);
  const logFile = join(root, "postgres.log");
  let port = 0;
  try {
    const user = serverUser();
    if (user) chownSync(root, user.uid, user.gid);
    chmodSync(root, 0o700);
    // --no-sync: throwaway cluster, as fsync=off in SERVER_SETTINGS.
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
    await runToEnd(bin, "initdb", initdb, root);
    writeFileSync(
      join(cluster.dataDir, "pg_hba.conf"),
      "# Throwaway cluster: no password, and nothing but loopback TCP (listen_addresses=127.0.0.1).\n" +
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
        if (attempt >= 3 || !/could not bind|address already in use/i.test(error.message)) throw error;
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
    url: urlFor("postgres"),
    port,
    get pid() {
      return lastPid;
    },
    dataDir: cluster.dataDir,
    logFile,
    async createDatabase(name = `test_${randomBytes(6).toString("hex")}`) {
      if (!/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(name)) throw new Error(`Not a plain database name: ${name}`);
      // template0: nobody is ever connected to it, so CREATE DATABASE never waits on a copy source.
      await withClient(port, "postgres", (client) =>
        client.query(`CREATE DATABASE "${name}" TEMPLATE template0 ENCODING 'UTF8'`),
      );
      return urlFor(name);
    },
    stop: () => serially(stop),
    start: () =>
      serially(async () => {
        if (destroyed) throw new Error("This PostgreSQL server was destroyed.");
        if (cluster.running && !cluster.running.exit) return;
        lastPid = (await startOn(bin, cluster, port, logFile)).child.pid ?? 0;
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

function main([command]) {
  if (command === "check") {
    const found = findPostgres();
    if (!found.bin) {
      console.error(`PostgreSQL: ${found.reason}. Install it: ${INSTALL_HINT}`);
      return 1;
    }
    let version = "";
    try {
      version = execFileSync(join(found.bin, "postgres"), ["--version"], { encoding: "utf8" }).trim();
    } catch {
      // The version is only informative.
    }
    const user = serverUser();
    console.log(`PostgreSQL: ${found.bin} (${found.reason}) ${version}`);
    console.log(`Test clusters run as: ${user ? `${user.user} (uid ${user.uid})` : "the current user"}`);
    console.log(`Test clusters live in: ${clusterBase()}/${TEMP_PREFIX}*`);
    return 0;
  }
  if (command === "reap") {
    const removed = reapOrphans();
    console.log(removed.length ? `Removed ${removed.join(", ")}` : "No orphaned test cluster.");
    return 0;
  }
  console.error("Usage: node scripts/postgres.mjs check|reap");
  return 2;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url))
  process.exitCode = main(process.argv.slice(2));
