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

/** Chromium holds the first paint until the hero is parsed: a half-parsed hero shifts its layout. */
export const links: LinksFunction = () => [{ rel: "expect", href: "#services", blocking: "render" }];

export const headers: HeadersFunction = ({ actionHeaders, loaderHeaders }) => {
  // An action's answer is personal: never cached; its other headers travel with it.
  if (actionHeaders.get("Cache-Control")) return new Headers(actionHeaders);
  return {
    "Cache-Control": loaderHeaders.get("Cache-Control") ?? CACHE_CONTROL.page,
  };
};

export function action({ request, context }: ActionFunctionArgs) {
  if (!context.contactAction)
    throw new Error("The server did not hand the contact action to the app (server/app.ts).");
  return context.contactAction(request);
}

/** With JavaScript: a network failure becomes the form's error notice, not the error screen. */
export function clientAction({ serverAction }: ClientActionFunctionArgs) {
  return runContactServerAction(serverAction);
}

/** A successful no-JavaScript submission lands on `/?contact=sent`: the page, with the notice. */
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
