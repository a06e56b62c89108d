/** What search engines and link previews show, besides what comes from `site`. */
export const seo = {
  themeColor: "#0e1428",
  locale: "en_US",
  socialImage: {
    path: "/og-image.png",
    width: 1200,
    height: 630,
    alt: "AI Automation Agency: Transform Your Business with AI. Up to 80% less manual work, ROI in 3-6 months, start in 2 weeks.",
  },
  business: { areaServed: "US" },
  robots: {
    /** Paths crawlers should skip: operational endpoints, not pages. */
    disallow: ["/healthz"],
  },
} as const;
