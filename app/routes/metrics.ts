import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";

import { answerAsIfAbsent } from "~/lib/hidden-route.server";
import { metricsAuthorized, metricsResponse } from "~/lib/metrics.server";
import { ownBuild } from "~/lib/own-build.server";

// Without the token, /metrics answers exactly as the app does when this route does not exist.
let asIfAbsent: ((request: Request) => Promise<Response>) | undefined;
const answerAsAbsent = (request: Request) =>
  (asIfAbsent ??= answerAsIfAbsent(ownBuild(), "routes/metrics"))(request);

export function loader({ request }: LoaderFunctionArgs) {
  return metricsAuthorized(request) ? metricsResponse(request) : answerAsAbsent(request);
}

export function action({ request }: ActionFunctionArgs) {
  return answerAsAbsent(request);
}
