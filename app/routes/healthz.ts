import type { LoaderFunctionArgs } from "@remix-run/node";

import { healthReport } from "~/lib/health.server";

// Never cached, like every answer of this server that does not say otherwise (server/app.ts).
export function loader({ context }: LoaderFunctionArgs) {
  const report = healthReport(context.leads?.store.status());
  return Response.json(report, { status: report.status === "ok" ? 200 : 503 });
}
