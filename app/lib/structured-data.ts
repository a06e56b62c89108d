import type { Faq, Service } from "~/content/types";

import { absoluteUrl } from "./seo";

interface Business {
  brandName: string;
  description: string;
  email: string;
  location: { city: string; region: string; country: string };
}

export interface StructuredDataInput {
  siteUrl: string;
  site: Business;
  services: readonly Service[];
  faqs: readonly Faq[];
  areaServed: string;
  logoPath: string;
  imagePath: string;
}

/** schema.org JSON-LD, built from the content the page renders, so the two never disagree. */
export function structuredData(input: StructuredDataInput): Record<string, unknown>[] {
  const url = absoluteUrl(input.siteUrl, "/");
  const business = {
    "@context": "https://schema.org",
    "@type": "ProfessionalService",
    "@id": `${url}#business`,
    name: input.site.brandName,
    description: input.site.description,
    url,
    email: input.site.email,
    logo: absoluteUrl(input.siteUrl, input.logoPath),
    image: absoluteUrl(input.siteUrl, input.imagePath),
    address: {
      "@type": "PostalAddress",
      addressLocality: input.site.location.city,
      addressRegion: input.site.location.region,
      addressCountry: input.site.location.country,
    },
    areaServed: input.areaServed,
    hasOfferCatalog: {
      "@type": "OfferCatalog",
      name: "AI automation services",
      itemListElement: input.services.map((service) => ({
        "@type": "Offer",
        itemOffered: { "@type": "Service", name: service.title, description: service.description },
      })),
    },
  };
  const faqPage = {
    "@context": "https://schema.org",
    "@type": "FAQPage",
    "@id": `${url}#faq`,
    mainEntity: input.faqs.map((faq) => ({
      "@type": "Question",
      name: faq.question,
      acceptedAnswer: { "@type": "Answer", text: faq.answer },
    })),
  };
  return [business, faqPage];
}

/** Escaped so no content can close the `<script>` element or open a comment. */
export function serializeJsonLd(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}
