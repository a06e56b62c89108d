import type { PrivacyFacts } from "~/lib/privacy.server";

import { PageLayout } from "./PageLayout";
import { PrivacyDetails } from "./privacy/PrivacyDetails";
import { PrivacySummary } from "./privacy/PrivacySummary";

/**
 * /privacy (decision 043): the site's layout around two layers, a short summary and the detail. The
 * header's and footer's section links lead to the home page's sections. Server HTML, complete
 * without JavaScript: nothing on it needs a script.
 */
export function PrivacyPage({ facts }: { facts: PrivacyFacts }) {
  return (
    <PageLayout sectionsOn="/" current="/privacy">
      <PrivacySummary facts={facts} />
      <PrivacyDetails facts={facts} />
    </PageLayout>
  );
}
