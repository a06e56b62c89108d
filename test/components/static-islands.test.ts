import { readFileSync } from "node:fs";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { aboutParagraphs } from "~/content/about";
import { academyIntro } from "~/content/academy";
import { communityIntro, communityTiles, tiers } from "~/content/community";
import { hero } from "~/content/hero";
import { processSteps } from "~/content/process";
import { resultsIntro, resultsMetrics } from "~/content/results";
import { services, servicesIntro } from "~/content/services";
import { testimonialsIntro } from "~/content/testimonials";

import { browserBuildDir, browserScripts, filesUnder, root } from "../support/build-output";

/**
 * The static sections (021-static-islands) are server HTML only: their copy must not be in the
 * browser's JavaScript. Read from the production build (REMIX_BUILD_DIR).
 */

/** The longest plain run of a text (letters, digits, spaces, commas, dots): the same in any JS string escaping. */
function needle(text: string): string {
  const runs = text.match(/[A-Za-z0-9 ,.]+/g) ?? [];
  const longest = runs.reduce((best, run) => (run.length > best.length ? run : best), "");
  return longest.trim();
}

const islandCopy: Record<string, string> = {
  "hero lead": hero.lead,
  "services heading": servicesIntro.heading,
  "a service's description": services[1]!.description,
  "a service's feature": services[2]!.features[0]!,
  "about paragraph": aboutParagraphs[0]!,
  "community lead": communityIntro.lead,
  "a tier's description": tiers[0]!.description,
  "a community tile": communityTiles[0]!.description,
  "results lead": resultsIntro.lead,
  "a result's detail": resultsMetrics[0]!.detail,
  "a process step": processSteps[0]!.description,
  "academy lead": academyIntro.lead,
};

describe("static islands in the browser bundle", () => {
  const scripts = browserScripts();
  const bundle = scripts.map((path) => readFileSync(path, "utf8")).join("\n");

  it("has a build to inspect", () => {
    expect(scripts.length, `no client build in ${browserBuildDir}: build first`).toBeGreaterThan(0);
  });

  it("still holds the copy of a hydrated section (the search works)", () => {
    expect(bundle.includes(needle(testimonialsIntro.lead))).toBe(true);
  });

  for (const [what, text] of Object.entries(islandCopy)) {
    it(`holds no island copy: ${what}`, () => {
      const plain = needle(text);
      expect(plain.length, "a long enough sample").toBeGreaterThan(15);
      expect(bundle.includes(plain), `"${plain}" is in the browser bundle`).toBe(false);
    });
  }
});

describe("links to the home page are document links", () => {
  // A client-side navigation would render the home route in the browser, where the islands' HTML
  // does not exist: the sections would be empty. So the app uses no Remix <Link>/<NavLink> and no
  // navigate(): every link is a plain <a href>, which loads a document.
  const sources = filesUnder(join(root, "app")).filter((path) => /\.(tsx?|jsx?)$/.test(path));

  it("finds the app's sources", () => {
    expect(sources.length).toBeGreaterThan(10);
  });

  it("no module uses Remix's client-side navigation", () => {
    const offenders = sources.filter((path) =>
      /\b(Link|NavLink|useNavigate|redirectDocument)\b[^;]*from\s+"@remix-run\/react"|\buseNavigate\(|<(Nav)?Link[\s>]/.test(
        readFileSync(path, "utf8"),
      ),
    );
    expect(offenders).toEqual([]);
  });
});
