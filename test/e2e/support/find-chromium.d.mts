export declare function findChromium(env?: NodeJS.ProcessEnv): { path: string | null; reason: string };
export declare function browserRequired(env?: NodeJS.ProcessEnv): boolean;
