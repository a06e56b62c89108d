// `npm start` (scripts/start.mjs imports this bundle from <build>/server/production.mjs): checks
// the configuration and the build, then serves it until SIGTERM/SIGINT.
import path from "node:path";
import { pathToFileURL } from "node:url";

import { installGlobals, type ServerBuild } from "@remix-run/node";

import { dataFileProblems } from "~/lib/data-files.server";
import { env } from "~/lib/env.server";
import { configWarnings } from "~/lib/env-warnings.server";
import { createLeadServices } from "~/lib/leads/services.server";
import { startupSummary } from "~/lib/startup.server";

import { createApp } from "./app";
import { missingBrowserAssets } from "./browser-assets";
import { addressOf, listen, refuse, stopOnSignals } from "./lifecycle";
import { warmUp } from "./warm-up";

/**
 * The longest a request may legitimately take: waiting for the store (its statement timeout), the
 * function's timeout, then recording the outcome (docs/production.md asks the orchestrator for a
 * little more).
 */
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

  // The store is connected before the first visitor; one that cannot be reached does not stop the
  // server (the page never needs it): the startup line says so, and it reconnects by itself.
  const leads = createLeadServices(env);
  const store = await leads.start();
  const app = createApp({ root, getBuild: () => build, mode: "production", leads });
  // /healthz answers 503 until the home document exists (and says why if it cannot).
  warmUp(build, env.SITE_URL).catch((error: unknown) =>
    console.error(JSON.stringify({ event: "home_document_warm_up_failed", message: String(error) })),
  );
  const server = await listen(app, env.PORT, env.HOST).catch((error: Error) =>
    refuse(`npm start: ${error.message}`),
  );
  console.log(JSON.stringify({ ...startupSummary(store), listening: addressOf(server) }));
  stopOnSignals(server, { graceMs: SHUTDOWN_GRACE_MS, afterClose: () => leads.stop() });
}
