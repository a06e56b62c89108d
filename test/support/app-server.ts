import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterAll, beforeAll } from "vitest";

import { serverBuildDir } from "./build-output";
import { type FakeFunction, startFakeFunction } from "./fake-function";
import { type ServerProcess, startServer } from "./server-process.mjs";

export type AppServer = ServerProcess;

/** A lead store of this run's own (an SQLite file in a fresh folder), never the checkout's .data/. */
export function leadStoreEnv(dir = mkdtempSync(join(tmpdir(), "leads-"))): Record<string, string> {
  return { LEADS_DATABASE_FILE: join(dir, "leads.sqlite") };
}

/** The production build as `npm start` serves it; /healthz says ready once the home page is built. */
export function startAppServer(env: Record<string, string | undefined> = {}): Promise<AppServer> {
  return startServer({
    buildDir: serverBuildDir,
    readyPath: "/healthz",
    readyStatus: 200,
    env: {
      // Never inherit a real backend from the developer's shell: a test names its own.
      SUPABASE_URL: undefined,
      SUPABASE_ANON_KEY: undefined,
      METRICS_TOKEN: undefined,
      DATABASE_URL: undefined,
      ...leadStoreEnv(),
      // The dispatcher would call the function again for a lead that failed, within a long test:
      // a test counting calls sees only the visitor's own. Tests of the retries set their delay.
      CONTACT_RETRY_INITIAL_SECONDS: "3600",
      ...env,
    },
  });
}

export interface AppWithFunction {
  server: AppServer;
  fake: FakeFunction;
}

/** The production server wired to a fake `send-contact-email`; the fields are set in `beforeAll`. */
export function useAppWithFunction(env: Record<string, string | undefined> = {}): AppWithFunction {
  const app = {} as AppWithFunction;
  beforeAll(async () => {
    app.fake = await startFakeFunction();
    app.server = await startAppServer({
      SUPABASE_URL: app.fake.url,
      SUPABASE_ANON_KEY: "test-anon-key",
      ...env,
    });
  });
  afterAll(async () => {
    await app.server?.stop();
    await app.fake?.close();
  });
  return app;
}
