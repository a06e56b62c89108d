import { consentText } from "~/content/consent";
import { CONSENT_DOM, CONSENT_KEY, consentScript, gtagSource } from "~/lib/analytics-consent";

/**
 * Google Analytics behind consent (decision 047): one inline script, the same for every visitor, that
 * inserts gtag.js only after Accept (`'strict-dynamic'` allows what an allowed script inserts).
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
