import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { browserRequired } from "../../scripts/chromium.mjs";
import { useAppWithFunction } from "../support/app-server";
import { root } from "../support/server-process.mjs";
import { contactRequest } from "../support/contact-request";

/**
 * Every document the server sends is valid HTML by the W3C Nu HTML Checker (npm `vnu-jar`, run
 * with the system Java: Debian's default-jre-headless, installed by .ci/run), not merely what
 * Chromium tolerates.
 */

const VNU_JAR = join(root, "node_modules/vnu-jar/build/dist/vnu.jar");

/**
 * `<link rel="expect" blocking="render">` is in the HTML standard (link type "expect"); the
 * checker has not caught up with that one rule yet. Only this exact message is forgiven.
 */
const KNOWN_CHECKER_GAPS = new Set([
  "A “link” element with a “blocking” attribute must have a “rel” attribute whose value is “stylesheet”.",
]);

interface VnuMessage {
  type: string;
  subType?: string;
  message: string;
  url?: string;
  lastLine?: number;
  extract?: string;
}

const javaFound = spawnSync("java", ["-version"], { stdio: "ignore" }).status === 0;
if (!javaFound && !browserRequired()) {
  console.warn(
    "\n!!! No Java on the PATH: the HTML validity checks (vnu) are SKIPPED. apt-get install default-jre-headless.\n",
  );
}

/** Runs the checker once over every file; the errors it reports, per file name. */
function vnuErrors(files: Record<string, string>): Record<string, string[]> {
  const dir = mkdtempSync(join(tmpdir(), "vnu-"));
  const paths = Object.entries(files).map(([name, html]) => {
    const path = join(dir, `${name}.html`);
    writeFileSync(path, html);
    return path;
  });
  const run = spawnSync("java", ["-jar", VNU_JAR, "--format", "json", "--stdout", ...paths], {
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  if (run.error) throw run.error;
  const { messages } = JSON.parse(run.stdout) as { messages: VnuMessage[] };
  const errors: Record<string, string[]> = Object.fromEntries(Object.keys(files).map((name) => [name, []]));
  for (const message of messages) {
    if (message.type !== "error" && message.type !== "non-document-error") continue;
    if (KNOWN_CHECKER_GAPS.has(message.message)) continue;
    const name = Object.keys(files).find((key) => message.url?.endsWith(`/${key}.html`)) ?? "unknown";
    (errors[name] ??= []).push(`${message.message} (line ${message.lastLine}: ${message.extract ?? ""})`);
  }
  return errors;
}

describe.skipIf(!javaFound && !browserRequired())(
  "valid HTML (W3C Nu HTML Checker)",
  { timeout: 120_000 },
  () => {
    const app = useAppWithFunction({
      // With analytics: every document then carries the consent bar and "Cookie settings" too
      // (decision 047); without it they are the same documents less those parts.
      GA_MEASUREMENT_ID: "G-VALID123",
      TRUST_PROXY: "1",
      RATE_LIMIT_PER_CLIENT: "1",
      RATE_LIMIT_GLOBAL_PER_MINUTE: "1000",
    });

    const form = contactRequest({
      name: "Grace Hopper",
      email: "grace@example.com",
      company: "Compilers & Co",
      message: 'We would like to automate "the <b>invoices</b>" & more.',
    });

    async function post(
      fields: Record<string, string>,
      client: string,
    ): Promise<{ status: number; html: string }> {
      const res = await fetch(`${app.server.url}/?index`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": client },
        body: new URLSearchParams(fields),
      });
      return { status: res.status, html: await res.text() };
    }

    it("finds no error in the page, the privacy page, the 404, the 400 and every answer of a form POST without JavaScript", async () => {
      const home = await fetch(`${app.server.url}/`);
      const privacy = await fetch(`${app.server.url}/privacy`);
      const notFound = await fetch(`${app.server.url}/no/such/page`);
      const badRequest = await fetch(`${app.server.url}/%`);
      app.fake.setMode({ kind: "success" });
      const sent = await post(form, "203.0.113.1");
      const invalid = await post({ ...form, email: "grace@", message: "" }, "203.0.113.2");
      // (`sent` followed the 303 to the page with the notice.) The next ones are requests of their
      // own: the one delivered above would be answered as sent without a call.
      app.fake.setMode({ kind: "status", status: 500 });
      const functionError = await post({ ...form, message: `${form.message} (2)` }, "203.0.113.3");
      app.fake.setMode({ kind: "success" });
      const rateLimited = await post({ ...form, message: `${form.message} (3)` }, "203.0.113.1");
      expect([
        home.status,
        privacy.status,
        notFound.status,
        badRequest.status,
        sent.status,
        invalid.status,
        functionError.status,
        rateLimited.status,
      ]).toEqual([200, 200, 404, 400, 200, 400, 502, 429]);

      const errors = vnuErrors({
        home: await home.text(),
        privacy: await privacy.text(),
        "not-found": await notFound.text(),
        "bad-request": await badRequest.text(),
        "post-sent": sent.html,
        "post-invalid": invalid.html,
        "post-function-error": functionError.html,
        "post-rate-limited": rateLimited.html,
      });
      expect(errors).toEqual({
        home: [],
        privacy: [],
        "not-found": [],
        "bad-request": [],
        "post-sent": [],
        "post-invalid": [],
        "post-function-error": [],
        "post-rate-limited": [],
      });
    });

    it("is a checker that really reports errors (a broken document fails)", () => {
      const errors = vnuErrors({
        broken:
          '<!DOCTYPE html><html lang="en"><head><title>x</title></head><body><p>x</p></body></html><script>x()</script>',
      });
      expect(errors.broken!.join("\n")).toContain("Stray start tag “script”");
    });
  },
);
