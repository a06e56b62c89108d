import { healthReport } from "~/lib/health.server";

// Never cached, like every answer of this server that does not say otherwise (server/app.ts).
export function loader() {
  const report = healthReport();
  return Response.json(report, { status: report.status === "ok" ? 200 : 503 });
}
