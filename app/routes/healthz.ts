import type { LoaderFunctionArgs } from "@remix-run/node";

import { healthReport } from "~/lib/health.server";
import { nonDocumentHeadersFor } from "~/lib/security/policy.server";

export function loader({ request }: LoaderFunctionArgs) {
  const report = healthReport();
  return Response.json(report, {
    status: report.status === "ok" ? 200 : 503,
    headers: { "Cache-Control": "no-store", ...nonDocumentHeadersFor(request) },
  });
}
