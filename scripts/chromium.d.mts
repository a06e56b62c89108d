export declare const CHROMIUM_FLAGS: string[];
export declare const LOOPBACK_ONLY_FLAGS: string[];
export declare function findChromium(
  env?: NodeJS.ProcessEnv,
  options?: { forTests?: boolean },
): { path: string | null; reason: string };
export declare function chromiumPath(env?: NodeJS.ProcessEnv): string;
export declare function browserRequired(env?: NodeJS.ProcessEnv): boolean;
export declare function isLoopback(url: string): boolean;
