import type { ChildProcess } from "node:child_process";

export declare const root: string;
export declare function freePort(): Promise<number>;

export interface RemixServe {
  url: string;
  port: number;
  process: ChildProcess;
  /** Everything the server printed so far (stdout and stderr), or its last `logLimit` characters. */
  output(): string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export declare function startRemixServe(options: {
  serverBuild: string;
  env?: Record<string, string | undefined>;
  readyPath?: string;
  logLimit?: number;
}): Promise<RemixServe>;
