import type { ChildProcess } from "node:child_process";

export declare const root: string;
export declare function freePort(): Promise<number>;

export interface ServerProcess {
  url: string;
  port: number;
  process: ChildProcess;
  /** Everything the server printed so far (stdout and stderr), or its last `logLimit` characters. */
  output(): string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export declare function startServer(options: {
  buildDir: string;
  env?: Record<string, string | undefined>;
  readyPath?: string;
  readyStatus?: number;
  logLimit?: number;
  /** The Node and the start script to run (default: this one's scripts/start.mjs). */
  command?: string;
  script?: string;
}): Promise<ServerProcess>;
