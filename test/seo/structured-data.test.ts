import { describe, expect, it } from "vitest";

import { serializeJsonLd, structuredData } from "~/lib/structured-data";

describe("JSON-LD serialization", () => {
  it("cannot be closed or commented out by content, and still parses to the same value", () => {
    const hostile = { text: "</script><script>alert(1)</script><!-- & \u2028" };
    const json = serializeJsonLd(hostile);
    expect(json).not.toMatch(/[<>&\u2028]/);
    expect(JSON.parse(json)).toEqual(hostile);
  });

  it("builds absolute URLs from SITE_URL with or without a trailing slash", () => {
    const input = {
      site: {
        brandName: "B",
        description: "D",
        email: "e@example.com",
        location: { city: "Cincinnati", region: "OH", country: "US" },
      },
      services: [],
      faqs: [],
      areaServed: "US",
      logoPath: "/icon-512.png",
      imagePath: "/og-image.png",
    };
    for (const siteUrl of ["https://a.example", "https://a.example/"]) {
      const [business] = structuredData({ ...input, siteUrl });
      expect(business?.url).toBe("https://a.example/");
      expect(business?.logo).toBe("https://a.example/icon-512.png");
    }
  });
});
