// Who is in the browser JavaScript: the build's esbuild metafile maps every output
// chunk to the modules inside it, so a chunk's bytes can be split by package.
import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";

/** `node_modules/@radix-ui/react-tooltip/dist/x.mjs` → `@radix-ui/react-tooltip`; app code → `app`. */
export function packageOf(inputPath) {
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(inputPath);
  if (match) return match[1];
  if (inputPath.startsWith("app/") || inputPath.includes("?browser")) return "app";
  return inputPath.split("/")[0] ?? inputPath;
}

/** Public URL path (`/build/...`) of a metafile output under `<buildDir>/assets/`. */
export function publicPathOf(outputPath, buildDir) {
  const prefix = `${buildDir.replace(/\/+$/, "")}/assets/`;
  return outputPath.startsWith(prefix) ? `/build/${outputPath.slice(prefix.length)}` : null;
}

/**
 * Every JS chunk of the build with its raw and gzipped size and its bytes per package.
 * `loadedPaths` (URL paths loaded on first visit) marks which chunks the first visit pays for.
 */
export function analyseBundles(buildDir, root, loadedPaths) {
  const metafile = JSON.parse(readFileSync(`${root}${buildDir}/metafile.js.json`, "utf8"));
  const chunks = [];
  for (const [outputPath, output] of Object.entries(metafile.outputs)) {
    if (!outputPath.endsWith(".js")) continue;
    const publicPath = publicPathOf(outputPath, buildDir);
    const byPackage = {};
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
      const pkg = packageOf(input);
      byPackage[pkg] = (byPackage[pkg] ?? 0) + bytesInOutput;
    }
    const bytes = readFileSync(`${root}${outputPath}`);
    chunks.push({
      path: publicPath,
      entryPoint: output.entryPoint ?? null,
      raw: bytes.length,
      gzip: gzipSync(bytes, { level: 6 }).length,
      firstVisit: publicPath !== null && loadedPaths.has(publicPath),
      byPackage,
    });
  }
  return chunks;
}

/** Raw bytes per package summed over the given chunks, largest first. */
export function packagesIn(chunks) {
  const totals = {};
  for (const chunk of chunks) {
    for (const [pkg, bytes] of Object.entries(chunk.byPackage)) totals[pkg] = (totals[pkg] ?? 0) + bytes;
  }
  return Object.entries(totals)
    .sort((a, b) => b[1] - a[1])
    .map(([name, raw]) => ({ name, raw }));
}
