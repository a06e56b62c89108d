import type { HeadersFunction, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";

import { PrivacyPage } from "~/components/PrivacyPage";
import { privacyText } from "~/content/privacy";
import { privacyRoute } from "~/lib/privacy.server";
import { revalidateOnNavigationOnly } from "~/lib/revalidation";
import { pageMeta } from "~/lib/seo";
import type { loader as rootLoader } from "~/root";

/** /privacy (decision 043): what the site does with personal data, stated from the code and configuration. */
export const meta: MetaFunction<typeof loader, { root: typeof rootLoader }> = ({ matches }) => {
  const root = matches.find((match) => match.id === "root");
  return pageMeta(root?.data?.siteUrl ?? "", { ...privacyText.meta, path: "/privacy" });
};

/** The same for every visitor until the next deploy: cached as the home page is. */
export const headers: HeadersFunction = () => ({ "Cache-Control": privacyRoute.cacheControl() });

/** The values the page states, from this server's configuration (app/lib/privacy.server.ts). */
export function loader() {
  return privacyRoute.facts();
}

export const shouldRevalidate = revalidateOnNavigationOnly;

export default function Privacy() {
  return <PrivacyPage facts={useLoaderData<typeof loader>()} />;
}
