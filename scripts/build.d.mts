export interface BrowserManifest {
  entry: { module: string; imports?: string[] };
  routes: Record<string, { module: string; imports?: string[] }>;
  version: string;
  url: string;
}
export declare const COMPILE_HINT: string;
export declare function firstVisitScripts(manifest: BrowserManifest): string[];
export declare function readManifest(dirs?: { serverDir: string; assetsDir: string }): BrowserManifest;
export declare function assetFile(url: string, dirs?: { assetsDir: string }): string;
export declare function staticImports(code: string): string[];
export declare function evaluationOrder(
  manifest: BrowserManifest,
  importsOf: (url: string) => string[],
): string[];
