import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";

import { BadRequestScreen } from "~/components/BadRequestScreen";
import { NotFoundScreen } from "~/components/NotFoundScreen";
import { badRequestText } from "~/content/bad-request";
import { notFoundText } from "~/content/not-found";

interface SplatData {
  pathname: string;
  status: 400 | 404;
}

export const meta: MetaFunction = ({ data }) => [
  { title: (data as SplatData | undefined)?.status === 400 ? badRequestText.title : notFoundText.title },
  { name: "robots", content: "noindex" },
];

/**
 * Every path no other route answers: the 404. A path that was not valid percent-encoding (the
 * server escaped it and says so in the load context, server/app.ts) gets the 400 page instead;
 * the server's request line logs it, with no stack trace.
 */
export function loader({ request, context }: LoaderFunctionArgs) {
  const { pathname } = new URL(request.url);
  if (context.malformedPath) return data<SplatData>({ pathname, status: 400 }, { status: 400 });
  console.warn(JSON.stringify({ event: "not_found", path: pathname }));
  return data<SplatData>({ pathname, status: 404 }, { status: 404 });
}

export default function NotFound() {
  const { status } = useLoaderData() as SplatData;
  return status === 400 ? <BadRequestScreen /> : <NotFoundScreen />;
}
