// The development app server behind `npm run dev` (`remix dev --manual -c "node ./server/dev.js"`).
// It serves the latest build with Express, reloads it when Remix rebuilds, and with MOCKS=true
// answers the Supabase function `send-contact-email` with MSW, so the contact form's success and
// failure can be seen without a Supabase project (see mocks/contact-function.js).
import { watch } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

import { createRequestHandler } from "@remix-run/express";
import { broadcastDevReady } from "@remix-run/node";
import compression from "compression";
import express from "express";

const mocksOn = ["1", "true", "yes"].includes((process.env.MOCKS ?? "").trim().toLowerCase());

if (mocksOn) {
  // Before the build is imported: its environment is read once, at import.
  // The project URL is never contacted: MSW answers in this process.
  process.env.SUPABASE_URL ||= "http://127.0.0.1:54321";
  process.env.SUPABASE_ANON_KEY ||= "mock-anon-key";
  const { setupServer } = await import("msw/node");
  const { contactFunctionHandlers, MOCK_FAIL_WORD, MOCK_TIMEOUT_WORD } =
    await import("../mocks/contact-function.js");
  const failAll = process.env.MOCKS_MODE === "fail";
  setupServer(
    ...contactFunctionHandlers({
      failAll,
      onRequest: () => console.log(`[mocks] send-contact-email called (${failAll ? "failing" : "mocked"})`),
    }),
  ).listen({ onUnhandledRequest: "bypass" });
  console.log(
    `[mocks] send-contact-email is mocked: ${failAll ? "every call fails (MOCKS_MODE=fail)" : `succeeds; a message containing "${MOCK_FAIL_WORD}" fails, "${MOCK_TIMEOUT_WORD}" times out`}`,
  );
}

const buildDir = (process.env.REMIX_BUILD_DIR ?? "build").replace(/\/+$/, "");
const buildPath = path.resolve(buildDir, "index.js");

async function importBuild() {
  // A fresh URL each time, so a rebuilt server bundle is actually re-imported.
  return import(`${pathToFileURL(buildPath).href}?t=${Date.now()}`);
}

let build = await importBuild();

const app = express();
app.disable("x-powered-by");
app.use(compression());
app.use(build.publicPath, express.static(build.assetsBuildDirectory, { immutable: true, maxAge: "1y" }));
app.use(express.static("public", { maxAge: "1h" }));
app.all("*", (req, res, next) => createRequestHandler({ build, mode: "development" })(req, res, next));

const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST ?? "127.0.0.1";
app.listen(port, host, () => {
  console.log(`[dev] http://${host}:${port}`);
  void broadcastDevReady(build);
});

let reloading = false;
watch(path.dirname(buildPath), { persistent: true }, async (_event, file) => {
  if (file !== "version.txt" && file !== "index.js") return;
  if (reloading) return;
  reloading = true;
  setTimeout(async () => {
    reloading = false;
    try {
      build = await importBuild();
      await broadcastDevReady(build);
    } catch (error) {
      console.error("[dev] could not reload the build", error);
    }
  }, 100);
});
