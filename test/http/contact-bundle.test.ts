import { readFileSync } from "node:fs";

import { describe, expect, it } from "vitest";

import { browserBuildDir, browserScripts } from "../support/build-output";

/** What the contact form puts in the browser's JavaScript, read from the production build. */

describe("contact form in the browser bundle", () => {
  const scripts = browserScripts();

  it("has a build to inspect", () => {
    expect(scripts.length, `no client build in ${browserBuildDir}: build first`).toBeGreaterThan(0);
  });

  it("contains no Supabase code, URL or key", () => {
    for (const path of scripts) {
      const text = readFileSync(path, "utf8");
      expect(text, path).not.toMatch(/supabase|functions\/v1|SUPABASE_ANON_KEY|send-contact-email/i);
    }
  });

  it("loads Radix Toast only in its own lazy chunk", () => {
    const withToast = scripts.filter((path) => readFileSync(path, "utf8").includes("ToastViewport"));
    expect(withToast.length).toBeGreaterThan(0);
    for (const path of withToast) expect(path).toMatch(/ContactToast-[A-Z0-9]+\.js$/);
  });
});
