// `npm run dev`'s server (started by scripts/dev.mjs): the production server's Express app on the
// development build, re-imported after every rebuild, with live reload. With MOCKS=true, MSW
// answers `send-contact-email` in this process (mocks/contact-function.js).
import { pathToFileURL } from "node:url";

import { installGlobals, type ServerBuild } from "@remix-run/node";
import type { Response } from "express";

import { env } from "~/lib/env.server";
import { createLeadServices } from "~/lib/leads/services.server";
import { LIVE_RELOAD_PATH } from "~/lib/live-reload";

import { createApp } from "./app";
import { dataFileProblems, previousReleaseRefusal } from "./data-files";
import { healthEndpoint, httpsAsConfigured } from "./front-door";
import { addressOf, listen, refuse, stopOnSignals } from "./lifecycle";
import { contactFunctionHandlers, MOCK_FAIL_WORD, MOCK_TIMEOUT_WORD } from "../mocks/contact-function.js";
import { startupSummary } from "./startup";

async function startMocks(): Promise<void> {
  const { setupServer } = await import("msw/node");
  const failAll = env.MOCKS_MODE === "fail";
  setupServer(
    ...contactFunctionHandlers({
      failAll,
      onRequest: () => console.log(`[mocks] send-contact-email called (${failAll ? "failing" : "mocked"})`),
    }),
  ).listen({ onUnhandledFrame: "bypass" });
  console.log(
    `[mocks] send-contact-email is mocked: ${failAll ? "every call fails (MOCKS_MODE=fail)" : `succeeds; a message containing "${MOCK_FAIL_WORD}" fails, "${MOCK_TIMEOUT_WORD}" times out`}`,
  );
}

export interface DevServer {
  /** Imports the build again (after a rebuild) and tells every open page to reload. */
  reload(): Promise<void>;
}

export async function startDevServer({
  root,
  buildDir,
  onStop,
}: {
  root: string;
  buildDir: string;
  onStop: () => Promise<void>;
}): Promise<DevServer> {
  const previous = previousReleaseRefusal(env.LEADS_DATABASE_FILE);
  if (previous) refuse(`npm run dev: ${previous}`);
  const problems = dataFileProblems(env);
  if (problems.length > 0)
    refuse(`Invalid server configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
  // Globals first: installGlobals replaces `fetch`, and MSW must patch the fetch that stays.
  installGlobals({ nativeFetch: true });
  if (env.MOCKS) await startMocks();

  // A fresh URL each time, so that a rebuilt server bundle is imported again.
  const importBuild = async () =>
    (await import(`${pathToFileURL(`${buildDir}/index.js`).href}?t=${Date.now()}`)) as ServerBuild;
  let build = await importBuild();
  let generation = String(Date.now());
  const pages = new Set<Response>();

  const leads = createLeadServices(env);
  const store = await leads.start();
  const app = createApp({
    root,
    getBuild: () => build,
    mode: "development",
    leads,
    before: (express) =>
      express.get(LIVE_RELOAD_PATH, (req, res) => {
        res.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-store" });
        res.write(`retry: 500\ndata: ${generation}\n\n`);
        pages.add(res);
        req.on("close", () => pages.delete(res));
      }),
  });
  // /healthz as `npm start` answers it; the page itself is rendered for each request here.
  const health = healthEndpoint({ isHttps: httpsAsConfigured(env), storeStatus: () => leads.store.status() });
  const server = await listen("npm run dev", health, app, { port: env.PORT, host: env.HOST ?? "127.0.0.1" });
  console.log(JSON.stringify({ ...startupSummary(store), listening: addressOf(server) }));
  console.log(`[dev] ${addressOf(server)} (live reload on)`);
  stopOnSignals(server, {
    graceMs: 5_000,
    beforeClose: () => {
      for (const page of pages) page.end();
    },
    afterClose: async () => {
      await leads.stop();
      await onStop();
    },
  });

  return {
    async reload() {
      try {
        build = await importBuild();
      } catch (error) {
        console.error("[dev] could not load the new build", error);
        return;
      }
      generation = String(Date.now());
      for (const page of pages) page.write(`data: ${generation}\n\n`);
      console.log(`[dev] reloaded; ${pages.size} open page(s) told to reload`);
    },
  };
}
