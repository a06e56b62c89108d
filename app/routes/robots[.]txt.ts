import { env } from "~/lib/env.server";
import { CACHE_CONTROL } from "~/lib/security/headers.server";
import { robotsTxt } from "~/lib/seo";

export function loader() {
  return new Response(robotsTxt(env.SITE_URL), {
    headers: {
      "Content-Type": "text/plain; charset=utf-8",
      "Cache-Control": CACHE_CONTROL.file,
    },
  });
}
