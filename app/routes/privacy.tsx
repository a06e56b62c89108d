import type { HeadersFunction, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";

import { PageLayout } from "~/components/PageLayout";
import { PrivacyDetails } from "~/components/privacy/PrivacyDetails";
import { PrivacySummary } from "~/components/privacy/PrivacySummary";
import { privacyText } from "~/content/privacy";
import { privacyRoute } from "~/lib/privacy.server";
import { revalidateOnNavigationOnly } from "~/lib/revalidation";
import { pageMeta } from "~/lib/seo";
import type { loader as rootLoader } from "~/root";

export const meta: MetaFunction<typeof loader, { root: typeof rootLoader }> = ({ matches }) => {
  const root = matches.find((match) => match.id === "root");
  return pageMeta(root?.data?.siteUrl ?? "", { ...privacyText.meta, path: "/privacy" });
};

/** The same for every visitor until the next deploy. */
export const headers: HeadersFunction = () => ({ "Cache-Control": privacyRoute.cacheControl() });

export function loader() {
  return privacyRoute.facts();
}

export const shouldRevalidate = revalidateOnNavigationOnly;

/** A short summary, then the detail (decision 043); complete without JavaScript. */
export default function Privacy() {
  const facts = useLoaderData<typeof loader>();
  return (
    <PageLayout sectionsOn="/" current="/privacy">
      <PrivacySummary facts={facts} />
      <PrivacyDetails facts={facts} />
    </PageLayout>
  );
}
