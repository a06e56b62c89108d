import type { LinksFunction, MetaFunction } from "@remix-run/node";
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  useRouteError,
  useRouteLoaderData,
} from "@remix-run/react";
import type { ReactNode } from "react";

import { Analytics } from "~/components/Analytics";
import { ConsentBar } from "~/components/ConsentBar";
import { DevReload } from "~/components/DevReload";
import { ErrorScreen } from "~/components/ErrorScreen";
import { env } from "~/lib/env.server";
import { revalidateOnNavigationOnly } from "~/lib/revalidation";
import { documentLinks, documentMeta } from "~/lib/seo";
import stylesheet from "~/styles/app.css";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: stylesheet }, ...documentLinks()];

export const meta: MetaFunction = () => documentMeta();

export function loader() {
  // Configuration, not content: page copy ships in the route modules, never in loader data.
  return { gaMeasurementId: env.GA_MEASUREMENT_ID ?? null, siteUrl: env.SITE_URL };
}

export const shouldRevalidate = revalidateOnNavigationOnly;

export function Layout({ children }: { children: ReactNode }) {
  const data = useRouteLoaderData<typeof loader>("root");
  return (
    // suppressHydrationWarning: the inline loader may mark <html> for smooth scrolling before
    // hydration (smooth-scroll.ts); React leaves the attribute alone, and need not warn of it.
    <html lang="en" suppressHydrationWarning>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body>
        {/* Before the page: the first Tab reaches the choice (decision 047). */}
        {data?.gaMeasurementId ? <ConsentBar /> : null}
        {children}
        {/* No <ScrollRestoration>: the browser restores document navigations' scroll natively, and
            Remix's would block the parser before the first paint. */}
        {/* The server holds what this writes until the first paint (decision 022, markup.server.ts). */}
        <Scripts />
        {/* After <Scripts>: the policy hashes only the scripts from Remix's on (document.server.tsx).
            It loads nothing from Google until the visitor accepts (decision 047). */}
        {data?.gaMeasurementId ? <Analytics measurementId={data.gaMeasurementId} /> : null}
        {/* A constant in both builds: the production bundles do not contain it. */}
        {process.env.NODE_ENV === "development" ? <DevReload /> : null}
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary() {
  const error = useRouteError();
  const message = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : String(error);
  return <ErrorScreen message={message} />;
}
