import type { PrivacyFacts } from "~/lib/privacy.server";

import { PageLayout } from "./PageLayout";
import { PrivacyDetails } from "./privacy/PrivacyDetails";
import { PrivacySummary } from "./privacy/PrivacySummary";

/** /privacy (decision 043): a short summary, then the detail; complete without JavaScript. */
export function PrivacyPage({ facts }: { facts: PrivacyFacts }) {
  return (
    <PageLayout sectionsOn="/" current="/privacy">
      <PrivacySummary facts={facts} />
      <PrivacyDetails facts={facts} />
    </PageLayout>
  );
}
