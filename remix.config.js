// REMIX_BUILD_DIR lets parallel test runs (and the benchmark) build into their own
// folder instead of replacing the assets a running server is serving.
const outDir = process.env.REMIX_BUILD_DIR?.replace(/\/+$/, "");

/** @type {import('@remix-run/dev').AppConfig} */
export default {
  ignoredRouteFiles: ["**/.*"],
  serverModuleFormat: "esm",
  serverBuildPath: outDir ? `${outDir}/index.js` : "build/index.js",
  assetsBuildDirectory: outDir ? `${outDir}/assets` : "public/build",
  cacheDirectory: outDir ? `${outDir}/.cache` : ".cache",
  // Tailwind 4 runs as a PostCSS plugin (postcss.config.js); Remix's own Tailwind 3 hook stays off.
  postcss: true,
  tailwind: false,
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    v3_lazyRouteDiscovery: true,
    v3_singleFetch: true,
  },
};
