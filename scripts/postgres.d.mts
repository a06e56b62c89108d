// Types of scripts/postgres.mjs (plain JavaScript, so that the benchmark can import it as well).

export declare const INSTALL_HINT: string;
/** Every throwaway cluster lives in a temporary folder whose name starts with this. */
export declare const TEMP_PREFIX: string;
/** The file, in that folder, that holds the PID of the process that owns the cluster. */
export declare const OWNER_FILE: string;

export declare function findPostgres(env?: NodeJS.ProcessEnv): { bin: string | null; reason: string };
export declare function serverUser(): { user: string; uid: number; gid: number } | null;
export declare function postgresRequired(env?: NodeJS.ProcessEnv): boolean;
export declare function clusterBase(): string;
export declare function childPids(pid: number): number[];
export declare function killServerTree(pid: number): void;
/** Whether a process (e.g. a server's `pid`) still exists. */
export declare function isAlive(pid: number): boolean;
export declare function reapOrphans(): string[];

export declare function postgresAvailable(): { ok: true; bin: string } | { ok: false; reason: string };

export interface PostgresServer {
  /** postgres://postgres@127.0.0.1:PORT/postgres (the superuser, no password) */
  url: string;
  port: number;
  /** The PID of the running `postgres` server process (the last one, once stopped). */
  readonly pid: number;
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

/** Starts a fresh PostgreSQL cluster on a free port of 127.0.0.1 and waits until it accepts connections. */
export declare function startPostgres(): Promise<PostgresServer>;
