import { faqs } from "~/content/faq";
import { seo } from "~/content/seo";
import { services } from "~/content/services";
import { site } from "~/content/site";
import { serializeJsonLd, structuredData } from "~/lib/structured-data";

/** Server only (decision 021): the JSON-LD's data never ships as JavaScript. */
export function structuredDataScripts(siteUrl: string): string {
  const blocks = structuredData({
    siteUrl,
    site,
    services,
    faqs,
    areaServed: seo.business.areaServed,
    logoPath: "/icon-512.png",
    imagePath: seo.socialImage.path,
  });
  // Serialized with "<", ">" and "&" escaped: content cannot end the element.
  return blocks
    .map((block) => `<script type="application/ld+json">${serializeJsonLd(block)}</script>`)
    .join("");
}
