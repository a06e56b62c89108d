import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";

import { NotFoundScreen } from "~/components/NotFoundScreen";

export const meta: MetaFunction = () => [{ title: "Page Not Found" }, { name: "robots", content: "noindex" }];

export function loader({ request }: LoaderFunctionArgs) {
  const { pathname } = new URL(request.url);
  console.warn(JSON.stringify({ event: "not_found", path: pathname }));
  return data({ pathname }, { status: 404 });
}

export default function NotFound() {
  return <NotFoundScreen />;
}
