import { env } from "~/lib/env.server";
import { CACHE_CONTROL } from "~/lib/security/headers.server";
import { sitemapXml } from "~/lib/seo";

export function loader() {
  return new Response(sitemapXml(env.SITE_URL), {
    headers: {
      "Content-Type": "application/xml; charset=utf-8",
      "Cache-Control": CACHE_CONTROL.file,
    },
  });
}
