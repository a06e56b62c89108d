import type { LoaderFunctionArgs } from "@remix-run/node";

import { env } from "~/lib/env.server";
import { nonDocumentHeadersFor } from "~/lib/security/policy.server";
import { robotsTxt } from "~/lib/seo";

export function loader({ request }: LoaderFunctionArgs) {
  return new Response(robotsTxt(env.SITE_URL), {
    headers: {
      "Content-Type": "text/plain; charset=utf-8",
      "Cache-Control": "public, max-age=3600",
      ...nonDocumentHeadersFor(request),
    },
  });
}
