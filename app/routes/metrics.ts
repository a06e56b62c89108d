import * as serverBuild from "@remix-run/dev/server-build";
import type { ActionFunctionArgs, LoaderFunctionArgs, ServerBuild } from "@remix-run/node";

import { answerAsIfAbsent } from "~/lib/hidden-route.server";
import { metricsAuthorized, metricsResponse } from "~/lib/metrics.server";

// Without the token, /metrics answers exactly as the app does when this route does not exist.
// The build is the app's own (a circular import the compiler resolves); it is read on the first
// request, once every module has been evaluated.
let asIfAbsent: ((request: Request) => Promise<Response>) | undefined;
const answerAsAbsent = (request: Request) =>
  (asIfAbsent ??= answerAsIfAbsent(serverBuild as unknown as ServerBuild, "routes/metrics"))(request);

export function loader({ request }: LoaderFunctionArgs) {
  return metricsAuthorized(request) ? metricsResponse(request) : answerAsAbsent(request);
}

export function action({ request }: ActionFunctionArgs) {
  return answerAsAbsent(request);
}
