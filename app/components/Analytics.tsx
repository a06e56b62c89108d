import { consentText } from "~/content/consent";
import { CONSENT_DOM, CONSENT_KEY, consentScript, gtagSource } from "~/lib/analytics-consent";

/**
 * Google Analytics behind the visitor's consent (decision 047), rendered only when
 * GA_MEASUREMENT_ID is configured: one inline script (after Remix's, so the document's policy
 * hashes it: document.server.tsx) that shows the bar, keeps the choice and, only after Accept,
 * inserts gtag.js itself (under `'strict-dynamic'` a script inserted by an allowed script is
 * allowed). The same text for every visitor: the choice is read in the browser.
 */
export function Analytics({ measurementId }: { measurementId: string }) {
  const script = consentScript({
    measurementId,
    src: gtagSource(measurementId),
    key: CONSENT_KEY,
    dom: CONSENT_DOM,
    announce: consentText.announce,
  });
  return <script dangerouslySetInnerHTML={{ __html: script }} />;
}
