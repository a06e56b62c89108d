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

/** The 404; a path that was not valid percent-encoding gets the 400 (flagged by server/app.ts). */
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
