// `npm start` (scripts/start.mjs imports this bundle from <build>/server/production.mjs): checks
// the configuration and the build, then serves it until SIGTERM/SIGINT.
import path from "node:path";
import { pathToFileURL } from "node:url";

import { installGlobals, type ServerBuild } from "@remix-run/node";

import { env } from "~/lib/env.server";
import { createLeadServices } from "~/lib/leads/services.server";

import { createApp } from "./app";
import { missingBrowserAssets } from "./browser-assets";
import { dataFileProblems, previousReleaseRefusal } from "./data-files";
import { configWarnings } from "./env-warnings";
import { frontDoor, httpsAsConfigured } from "./front-door";
import {
  documentSettings,
  type HomeDocuments,
  homeDocumentLog,
  prerenderHome,
  readHome,
  writeHome,
} from "./home-document";
import { addressOf, listen, refuse, stopOnSignals } from "./lifecycle";
import { startupSummary } from "./startup";
import { loadStaticFiles, precompressAssets } from "./static-files";

/** The longest a request may take: the store's wait, the function's timeout, the outcome's record. */
export const SHUTDOWN_GRACE_MS = env.CONTACT_FUNCTION_TIMEOUT_MS + 12_000;

export async function startProduction({
  root,
  buildDir,
  buildName,
}: {
  root: string;
  buildDir: string;
  buildName: string;
}) {
  const previous = previousReleaseRefusal(env.LEADS_DATABASE_FILE);
  if (previous) refuse(`npm start: ${previous}`);
  const problems = dataFileProblems(env);
  if (problems.length > 0)
    refuse(`Invalid server configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);

  // Accepted, but probably not meant: one line each, on stderr, before anything is served.
  for (const warning of configWarnings(env)) console.warn(`npm start: warning: ${warning}`);

  installGlobals({ nativeFetch: true });
  const build = (await import(pathToFileURL(`${buildDir}/index.js`).href)) as ServerBuild;
  if (build.mode !== "production") {
    refuse(
      `npm start: ${buildName}/index.js is a ${build.mode} build (\`npm run dev\` makes those): run \`npm run build\` first.`,
    );
  }

  const missing = missingBrowserAssets(build, root);
  if (missing.length > 0) {
    const first = path.relative(root, missing[0] ?? "");
    const more = missing.length > 1 ? ` and ${missing.length - 1} more` : "";
    refuse(
      `npm start: ${buildName} lacks the browser files its pages load (${first}${more} missing): run \`npm run build\` again.`,
    );
  }

  // The home page as `npm run build` wrote it; made here, before listening, when this server's
  // settings differ from the build's (an image built once and configured per deployment).
  const home = await homePages(build, buildDir);

  // The store is connected before the first visitor; one that cannot be reached does not stop the
  // server (the page never needs it): the startup line says so, and it reconnects by itself.
  const leads = createLeadServices(env);
  const store = await leads.start();
  const app = createApp({ root, getBuild: () => build, mode: "production", leads });
  // The home page, the files and /healthz first, at the cost of a file; the rest to Express and Remix.
  const files = await loadStaticFiles({
    publicDir: path.join(root, "public"),
    assetsDir: path.resolve(root, build.assetsBuildDirectory),
    publicPath: build.publicPath,
  });
  const front = frontDoor({
    pages: home,
    files,
    isHttps: httpsAsConfigured(env),
    storeStatus: () => leads.store.status(),
  });
  const server = await listen("npm start", front, app, { port: env.PORT, host: env.HOST });
  console.log(JSON.stringify({ ...startupSummary(store), listening: addressOf(server) }));
  stopOnSignals(server, { graceMs: SHUTDOWN_GRACE_MS, afterClose: () => leads.stop() });
}

async function homePages(build: ServerBuild, buildDir: string): Promise<HomeDocuments> {
  const settings = documentSettings(env);
  const written = readHome(buildDir, build.assets.version, settings);
  let pages: HomeDocuments;
  let source = "build";
  if ("pages" in written) pages = written.pages;
  else {
    source = `made at start: ${written.unusable}`;
    pages = await prerenderHome(build, settings).catch((error: unknown) =>
      refuse(
        `npm start: the home page could not be rendered: ${error instanceof Error ? error.message : String(error)}`,
      ),
    );
  }
  for (const line of homeDocumentLog(pages, source)) console.log(line);
  return pages;
}

/** `npm run build`'s last steps (scripts/build.mjs): compressed browser files, the home pages. */
export async function finishBuild({ root, buildDir }: { root: string; buildDir: string }): Promise<void> {
  installGlobals({ nativeFetch: true });
  const build = (await import(pathToFileURL(`${buildDir}/index.js`).href)) as ServerBuild;
  const compressed = await precompressAssets(path.resolve(root, build.assetsBuildDirectory));
  console.log(`browser files compressed once (br, gzip): ${compressed}`);
  const settings = documentSettings(env);
  const pages = await prerenderHome(build, settings);
  writeHome(buildDir, build.assets.version, settings, pages);
  for (const line of homeDocumentLog(pages, "written by the build")) console.log(line);
}
