import type { LoaderFunctionArgs } from "@remix-run/node";

import { healthReport } from "~/lib/health.server";
import { nonDocumentHeadersFor } from "~/lib/security/policy.server";

export function loader({ request }: LoaderFunctionArgs) {
  return Response.json(healthReport(), {
    headers: { "Cache-Control": "no-store", ...nonDocumentHeadersFor(request) },
  });
}
