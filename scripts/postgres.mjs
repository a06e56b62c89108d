#!/usr/bin/env node
// The one place that knows where this machine's PostgreSQL server binaries are, and which user
// runs them: the throwaway test clusters of test/support/postgres.ts read it, and so does this CLI.
// Nothing is downloaded: Debian's `postgresql` package, or whatever POSTGRES_BIN_DIR names.
//
//   node scripts/postgres.mjs check   prints the binaries and the user that will run them
//                                     (exit 1 when missing: install with apt-get install -y postgresql)
//   node scripts/postgres.mjs reap    stops and deletes test clusters whose test process died
import { execFileSync } from "node:child_process";
import {
  accessSync,
  constants,
  existsSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const INSTALL_HINT = "apt-get install -y postgresql";

/** Every test cluster lives in a temporary folder whose name starts with this. */
export const TEMP_PREFIX = "pg-test-";

/** The file, in that folder, that holds the PID of the process that owns the cluster. */
export const OWNER_FILE = "owner.pid";

const SERVER_BINARIES = ["postgres", "initdb"];

function isExecutableFile(path) {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function hasServerBinaries(dir) {
  return SERVER_BINARIES.every((name) => isExecutableFile(join(dir, name)));
}

/** `/usr/lib/postgresql/<version>/bin` folders, highest version first. */
function debianBinDirs() {
  let versions;
  try {
    versions = readdirSync("/usr/lib/postgresql");
  } catch {
    return [];
  }
  return versions
    .filter((version) => /^\d+(\.\d+)*$/.test(version))
    .sort((a, b) => Number.parseFloat(b) - Number.parseFloat(a))
    .map((version) => `/usr/lib/postgresql/${version}/bin`);
}

function pgConfigBinDir(env) {
  try {
    return execFileSync("pg_config", ["--bindir"], {
      encoding: "utf8",
      env,
      stdio: ["ignore", "pipe", "ignore"],
    }).trim();
  } catch {
    return null;
  }
}

/**
 * The folder that holds both `postgres` and `initdb`: POSTGRES_BIN_DIR when set, else Debian's
 * highest /usr/lib/postgresql/<version>/bin, else `pg_config --bindir` (which libpq-dev may install
 * without any server), else the real folder of an `initdb` on the PATH (/usr/local/bin/initdb may
 * be a symlink).
 * @param {NodeJS.ProcessEnv} [env]
 * @returns {{ bin: string | null, reason: string }}
 */
export function findPostgres(env = process.env) {
  const override = env.POSTGRES_BIN_DIR?.trim();
  if (override) {
    return hasServerBinaries(override)
      ? { bin: resolve(override), reason: `POSTGRES_BIN_DIR=${override}` }
      : { bin: null, reason: `POSTGRES_BIN_DIR=${override} does not hold both postgres and initdb` };
  }
  for (const dir of debianBinDirs()) {
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

/**
 * Who runs `initdb` and `postgres`, which both refuse to run as root: nobody else than ourselves
 * (`null`) unless we are root, then the `postgres` system user of the Debian package, else `nobody`.
 * @returns {{ user: string, uid: number, gid: number } | null}
 */
export function serverUser() {
  if (process.getuid?.() !== 0) return null;
  serverUserCache ??= lookUpServerUser();
  return serverUserCache;
}

/** @type {{ user: string, uid: number, gid: number } | undefined} */
let serverUserCache;

function lookUpServerUser() {
  for (const user of ["postgres", "nobody"]) {
    try {
      const id = (flag) =>
        Number(
          execFileSync("id", [flag, user], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim(),
        );
      const uid = id("-u");
      const gid = id("-g");
      if (uid !== 0 && Number.isInteger(uid) && Number.isInteger(gid)) return { user, uid, gid };
    } catch {
      // No such user: try the next one.
    }
  }
  throw new Error("Running as root, and neither a `postgres` nor a `nobody` user exists to run PostgreSQL.");
}

/** With CI=true or REQUIRE_POSTGRES=1 a missing PostgreSQL is a failure, not a skip. */
export function postgresRequired(env = process.env) {
  return (
    env.CI === "true" || env.CI === "1" || env.REQUIRE_POSTGRES === "1" || env.REQUIRE_POSTGRES === "true"
  );
}

/** Whether every folder from `/` down to `path` lets other users through (the server user must). */
function reachableByOthers(path) {
  let current;
  try {
    current = realpathSync(path);
  } catch {
    return false;
  }
  for (;;) {
    try {
      if ((statSync(current).mode & 0o001) === 0) return false;
    } catch {
      return false;
    }
    const parent = dirname(current);
    if (parent === current) return true;
    current = parent;
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
  let entries;
  try {
    entries = readdirSync("/proc");
  } catch {
    return children;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      // pid (comm) state ppid ...: comm may hold spaces and parentheses, so split after the last ")".
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid === pid) children.push(Number(entry));
    } catch {
      // The process ended meanwhile.
    }
  }
  return children;
}

/** SIGKILLs a postmaster and its children (children first, so none outlives it for long). */
export function killServerTree(pid) {
  for (const child of childPids(pid)) {
    try {
      process.kill(child, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // Already gone.
  }
}

export function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return /** @type {NodeJS.ErrnoException} */ (error).code === "EPERM";
  }
}

/**
 * Stops (SIGKILL) and deletes every test cluster whose owning process is gone, e.g. after a test
 * process was itself SIGKILLed and could not clean up. Clusters of live processes are left alone.
 * @returns {string[]} the folders removed
 */
export function reapOrphans() {
  const removed = [];
  const bases = [...new Set([clusterBase(), tmpdir(), "/tmp"])];
  for (const base of bases) {
    let names;
    try {
      names = readdirSync(base).filter((name) => name.startsWith(TEMP_PREFIX));
    } catch {
      continue;
    }
    for (const name of names) {
      const dir = join(base, name);
      try {
        const ownerFile = join(dir, OWNER_FILE);
        if (existsSync(ownerFile)) {
          if (isAlive(Number(readFileSync(ownerFile, "utf8").trim()))) continue;
        } else if (Date.now() - statSync(dir).mtimeMs < 60_000) {
          continue; // Being set up right now.
        }
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

function main(args) {
  const [command] = args;
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

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = main(process.argv.slice(2));
}
