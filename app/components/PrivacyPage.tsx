import type { PrivacyFacts } from "~/lib/privacy.server";

import { Footer } from "./Footer";
import { Header } from "./Header";
import { PrivacyDetails } from "./privacy/PrivacyDetails";
import { PrivacySummary } from "./privacy/PrivacySummary";
import { SkipLink } from "./SkipLink";

/**
 * /privacy (decision 043): the site's header and footer around two layers, a short summary and the
 * detail. The header's and footer's section links lead to the home page's sections. Server HTML,
 * complete without JavaScript: nothing on it needs a script.
 */
export function PrivacyPage({ facts }: { facts: PrivacyFacts }) {
  return (
    <>
      <SkipLink />
      <Header sectionsOn="/" />
      {/* The header is fixed: main starts below it, as on the home page. */}
      <main id="main" tabIndex={-1} className="pt-(--header-height) focus:outline-none">
        <PrivacySummary facts={facts} />
        <PrivacyDetails facts={facts} />
      </main>
      <Footer sectionsOn="/" current="/privacy" />
    </>
  );
}
