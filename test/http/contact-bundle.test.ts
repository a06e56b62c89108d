import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

import { describe, expect, it } from "vitest";

/** What the contact form puts in the browser's JavaScript, read from the production build. */

const root = fileURLToPath(new URL("../..", import.meta.url));
const buildDir = process.env.REMIX_BUILD_DIR?.replace(/\/+$/, "");
const assets = join(root, buildDir ? `${buildDir}/assets` : "public/build");

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

describe("contact form in the browser bundle", () => {
  const scripts = existsSync(assets) ? files(assets).filter((path) => path.endsWith(".js")) : [];

  it("has a build to inspect", () => {
    expect(scripts.length, `no client build in ${assets}: build first`).toBeGreaterThan(0);
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
