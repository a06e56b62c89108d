// Types of scripts/ports.mjs (plain JavaScript, so that the benchmark can import it as well).

/** A TCP port on 127.0.0.1 that was free a moment ago (of this vitest worker's own block). */
export declare function freePort(): Promise<number>;
/** Whether fetch and the browsers may connect to `port` (the Fetch standard's port blocking). */
export declare function fetchAllows(port: number): boolean;
