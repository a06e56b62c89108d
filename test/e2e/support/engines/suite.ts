/**
 * `describeEngines`: a file's tests, written once against `Visitor`, run in Chromium, Firefox and
 * WebKit (decision 035). One server and one fake `send-contact-email` serve the file; each engine
 * opens at most one session with JavaScript on and one off, reused from test to test.
 * A missing engine fails under CI=true (or REQUIRE_BROWSER=1) and is skipped, visibly, otherwise.
 */
import { afterAll, beforeAll, describe } from "vitest";

import { browserRequired } from "../../../../scripts/chromium.mjs";
import type { FontSet } from "../../../fonts/font-sets";
import type { AppServer } from "../../../support/app-server";
import type { FakeFunction } from "../../../support/fake-function";
import { root, startBrowserTestServer } from "../browser";
import { type RecordingProxy, startRecordingProxy } from "../recording-proxy";
import { ENGINE_NAMES, type EngineName, type EngineSession } from "./driver";
import { chromiumLauncher } from "./chromium";
import { firefoxLauncher } from "./firefox";
import { Visitor } from "./visitor";
import { webkitLauncher } from "./webkit";

const LAUNCHERS = { chromium: chromiumLauncher, firefox: firefoxLauncher, webkit: webkitLauncher };

/** Of a suite's engines, those ENGINES names (a developer's shortcut: ENGINES=firefox,webkit). */
function chosenEngines(of: readonly EngineName[]): EngineName[] {
  const wanted = process.env.ENGINES?.split(",").map((name) => name.trim());
  const unknown = wanted?.filter((name) => !ENGINE_NAMES.includes(name as EngineName)) ?? [];
  if (unknown.length) throw new Error(`ENGINES names unknown engines: ${unknown.join(", ")}`);
  return of.filter((name) => !wanted || wanted.includes(name));
}

/** SCREENSHOTS=1 saves every section per engine and size, to compare by eye (a minute of CPU). */
export const screenshotDir = process.env.SCREENSHOTS === "1" ? `${root}test-results/screenshots` : null;

export interface EngineStack {
  readonly app: AppServer;
  readonly fake: FakeFunction;
  /** With `recordRequests`: the proxy every session sends its requests off the machine to. */
  readonly proxy?: RecordingProxy;
}

export interface EngineContext {
  readonly engine: EngineName;
  readonly stack: EngineStack;
  /** This engine's visitor with JavaScript on (or off): opened on first use, then reused. */
  visitor(javaScript?: boolean): Promise<Visitor>;
}

function useServer(serverEnv: Record<string, string | undefined>, recordRequests: boolean): EngineStack {
  const stack = {} as { app: AppServer; fake: FakeFunction; proxy?: RecordingProxy };
  beforeAll(async () => {
    Object.assign(stack, await startBrowserTestServer(serverEnv));
    if (recordRequests) stack.proxy = await startRecordingProxy();
  });
  afterAll(async () => {
    await stack.app?.stop();
    await stack.fake?.close();
    await stack.proxy?.close();
  });
  return stack;
}

/**
 * `fonts`: every session's font set (test/fonts/font-sets.ts), the run's default when unset.
 * `recordRequests`: sessions send what leaves 127.0.0.1 to a recording proxy (`stack.proxy`).
 * `engines`: where only some engines meet what the suite tests (every engine when unset).
 */
interface SuiteOptions {
  fonts?: FontSet;
  serverEnv?: Record<string, string | undefined>;
  recordRequests?: boolean;
  engines?: readonly EngineName[];
}

export function describeEngines(
  title: string,
  suite: (context: EngineContext) => void,
  { fonts, serverEnv = {}, recordRequests = false, engines = ENGINE_NAMES }: SuiteOptions = {},
): void {
  // ENGINES names none of them: no suite, as an empty one fails its file.
  if (chosenEngines(engines).length === 0) return;
  describe(title, { timeout: 120_000 }, () => {
    const stack = useServer(serverEnv, recordRequests);
    for (const engine of chosenEngines(engines)) {
      const launcher = LAUNCHERS[engine]();
      const missing = launcher.missing();
      const skip = missing !== null && !browserRequired();
      if (skip)
        console.warn(`\n!!! ${engine} is not installed (${missing}): "${title}" is SKIPPED in ${engine}.\n`);
      describe.skipIf(skip)(engine, () => {
        const sessions = new Map<boolean, Promise<EngineSession>>();
        const context: EngineContext = {
          engine,
          stack,
          async visitor(javaScript = true) {
            if (!sessions.has(javaScript))
              sessions.set(
                javaScript,
                launcher.open({ javaScript, fonts: fonts?.file, proxy: stack.proxy?.url }),
              );
            return new Visitor(await sessions.get(javaScript)!, stack.app.url);
          },
        };
        afterAll(async () => {
          await Promise.allSettled([...sessions.values()].map(async (session) => (await session).close()));
        });
        suite(context);
      });
    }
  });
}
