import { useRouteLoaderData } from "@remix-run/react";

import { faqs } from "~/content/faq";
import { seo } from "~/content/seo";
import { services } from "~/content/services";
import { site } from "~/content/site";
import { serializeJsonLd, structuredData } from "~/lib/structured-data";
import type { loader as rootLoader } from "~/root";

/**
 * The home page's JSON-LD. A data block is not executed, so it needs no CSP
 * nonce; it is rendered from the page's own content modules.
 */
export function StructuredData() {
  const root = useRouteLoaderData<typeof rootLoader>("root");
  if (!root) return null;
  const blocks = structuredData({
    siteUrl: root.siteUrl,
    site,
    services,
    faqs,
    areaServed: seo.business.areaServed,
    logoPath: "/icon-512.png",
    imagePath: seo.socialImage.path,
  });
  return (
    <>
      {blocks.map((block) => (
        <script
          key={String(block["@type"])}
          type="application/ld+json"
          // Serialized with "<", ">" and "&" escaped: content cannot end the element.
          dangerouslySetInnerHTML={{ __html: serializeJsonLd(block) }}
        />
      ))}
    </>
  );
}
