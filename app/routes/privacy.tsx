import type { HeadersFunction, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";

import { PrivacyPage } from "~/components/PrivacyPage";
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

export default function Privacy() {
  return <PrivacyPage facts={useLoaderData<typeof loader>()} />;
}
