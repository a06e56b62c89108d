import { describe, expect, it } from "vitest";

import { consentText } from "~/content/consent";
import {
  CONSENT_DOM,
  CONSENT_KEY,
  type ConsentConfig,
  consentScript,
  gtagSource,
} from "~/lib/analytics-consent";

/** The consent script's text (decision 047): inlined in every document with GA_MEASUREMENT_ID. */
const config = (announce: ConsentConfig["announce"] = consentText.announce): ConsentConfig => ({
  measurementId: "G-ABC123DEF4",
  src: gtagSource("G-ABC123DEF4"),
  key: CONSENT_KEY,
  dom: CONSENT_DOM,
  announce,
});

describe("consentScript", () => {
  it("is the same text for the same configuration (one hash for every visitor), with the tag's address in it", () => {
    expect(consentScript(config())).toBe(consentScript(config()));
    expect(consentScript(config())).toContain(
      '"src":"https://www.googletagmanager.com/gtag/js?id=G-ABC123DEF4"',
    );
  });

  it("cannot end its <script> element or open a comment, whatever the copy says", () => {
    const text = consentScript(
      config({ shown: "</script><script>alert(1)</script>", accepted: "<!--", declined: "ok" }),
    );
    expect(text).not.toMatch(/<\/script|<!--/i);
    expect(text).toContain("\\u003c/script>");
  });
});
