/**
 * What search engines and link previews show. Title, description, brand and
 * address come from `site`; the rest is here so a marketer edits one place.
 */
export const seo = {
  themeColor: "#0e1428",
  locale: "en_US",
  socialImage: {
    path: "/og-image.png",
    width: 1200,
    height: 630,
    alt: "AI Automation Agency: Transform Your Business with AI. Up to 80% less manual work, ROI in 3-6 months, start in 2 weeks.",
  },
  /** JSON-LD: what the business is called in structured data, and the area it serves. */
  business: {
    areaServed: "US",
    priceRange: "$$",
  },
  robots: {
    /** Paths crawlers should skip: operational endpoints, not pages. */
    disallow: ["/healthz"],
  },
} as const;
