import type {
  ActionFunctionArgs,
  HeadersFunction,
  LinksFunction,
  LoaderFunctionArgs,
  MetaFunction,
} from "@remix-run/node";
import type { ClientActionFunctionArgs } from "@remix-run/react";

import { HomePage } from "~/components/HomePage";
import { StructuredData } from "~/components/StructuredData";
import { isContactSentUrl } from "~/lib/contact/answer";
import { runContactServerAction } from "~/lib/contact/client-action";
import { revalidateOnNavigationOnly } from "~/lib/revalidation";
import { CACHE_CONTROL } from "~/lib/security/headers.server";
import { homeMeta } from "~/lib/seo";
import type { loader as rootLoader } from "~/root";

export const meta: MetaFunction<unknown, { root: typeof rootLoader }> = ({ matches }) => {
  const root = matches.find((match) => match.id === "root");
  return [...(root?.meta ?? []), ...homeMeta(root?.data?.siteUrl ?? "")];
};

/**
 * Chromium holds the first paint until the hero has been parsed (`#services` is the next section).
 * Without it, a slow parse painted a half-parsed hero, and the hero's centred card and its
 * bottom-anchored glow then moved as the rest arrived: a layout shift of up to 0.38 on load.
 * Other browsers ignore the hint; no request is involved.
 */
export const links: LinksFunction = () => [{ rel: "expect", href: "#services", blocking: "render" }];

export const headers: HeadersFunction = ({ actionHeaders, loaderHeaders }) => {
  // An action's answer is personal to one visitor and must never be cached.
  // Its other headers (Retry-After, Allow, X-Request-Id) travel with it.
  if (actionHeaders.get("Cache-Control")) return new Headers(actionHeaders);
  return {
    "Cache-Control": loaderHeaders.get("Cache-Control") ?? CACHE_CONTROL.page,
  };
};

/** The contact form posts here (with or without JavaScript). */
export function action({ request, context }: ActionFunctionArgs) {
  if (!context.contactAction)
    throw new Error("The server did not hand the contact action to the app (server/app.ts).");
  return context.contactAction(request);
}

/** With JavaScript: a network failure becomes the form's error notice, not the error screen. */
export function clientAction({ serverAction }: ClientActionFunctionArgs) {
  return runContactServerAction(serverAction);
}

/** `/?contact=sent` is where a successful no-JavaScript submission lands: the same page, with the notice. */
export function loader({ request }: LoaderFunctionArgs) {
  return { contactSent: isContactSentUrl(new URL(request.url)) };
}

export const shouldRevalidate = revalidateOnNavigationOnly;

export default function Index() {
  return (
    <>
      <HomePage />
      <StructuredData />
    </>
  );
}
