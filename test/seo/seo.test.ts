import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { faqs } from "~/content/faq";
import { services } from "~/content/services";
import { site } from "~/content/site";

import { type AppServer, startAppServer } from "../support/app-server";

const SITE_URL = "https://agency.example.com";

const decode = (text: string) =>
  text
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");

/** The `content` of `<meta {key}="{name}">` in the page's head. */
function metaContent(html: string, key: "name" | "property", name: string): string | undefined {
  const tag = [...html.matchAll(/<meta\b[^>]*>/g)]
    .map((m) => m[0])
    .find((t) => t.includes(`${key}="${name}"`));
  const content = tag ? /content="([^"]*)"/.exec(tag)?.[1] : undefined;
  return content === undefined ? undefined : decode(content);
}

function linkHrefs(html: string, rel: string): string[] {
  return [...html.matchAll(/<link\b[^>]*>/g)]
    .map((m) => m[0])
    .filter((tag) => tag.includes(`rel="${rel}"`))
    .map((tag) => decode(/href="([^"]*)"/.exec(tag)?.[1] ?? ""));
}

function jsonLd(html: string): Record<string, unknown>[] {
  return [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map(
    (m) => JSON.parse(m[1] ?? "") as Record<string, unknown>,
  );
}

/** The page's visible text, roughly: tags removed, entities decoded, whitespace collapsed. */
const visibleText = (html: string) =>
  decode(
    html
      .replace(/<script[\s\S]*?<\/script>/g, " ")
      .replace(/<[^>]+>/g, " ")
      .replace(/\s+/g, " "),
  );

describe("search engines and sharing", () => {
  let server: AppServer;
  let html: string;
  beforeAll(async () => {
    server = await startAppServer({ SITE_URL: `${SITE_URL}/` });
    html = await (await fetch(`${server.url}/`)).text();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("has the title, description, language and theme colour", () => {
    expect(html).toContain('<html lang="en"');
    expect(decode(/<title>([^<]*)<\/title>/.exec(html)?.[1] ?? "")).toBe(site.title);
    expect(metaContent(html, "name", "description")).toBe(site.description);
    expect(metaContent(html, "name", "theme-color")).toMatch(/^#[0-9a-f]{6}$/i);
    expect(metaContent(html, "name", "robots")).toBeUndefined();
  });

  it("has a canonical URL from SITE_URL (trailing slash normalized)", () => {
    expect(linkHrefs(html, "canonical")).toEqual([`${SITE_URL}/`]);
  });

  it("has Open Graph and Twitter card tags with an absolute 1200x630 image", () => {
    expect(metaContent(html, "property", "og:type")).toBe("website");
    expect(metaContent(html, "property", "og:url")).toBe(`${SITE_URL}/`);
    expect(metaContent(html, "property", "og:title")).toBe(site.title);
    expect(metaContent(html, "property", "og:description")).toBe(site.description);
    expect(metaContent(html, "property", "og:site_name")).toBe(site.brandName);
    expect(metaContent(html, "property", "og:image")).toBe(`${SITE_URL}/og-image.png`);
    expect(metaContent(html, "property", "og:image:width")).toBe("1200");
    expect(metaContent(html, "property", "og:image:height")).toBe("630");
    expect(metaContent(html, "property", "og:image:alt")?.length).toBeGreaterThan(10);
    expect(metaContent(html, "name", "twitter:card")).toBe("summary_large_image");
    expect(metaContent(html, "name", "twitter:title")).toBe(site.title);
    expect(metaContent(html, "name", "twitter:description")).toBe(site.description);
    expect(metaContent(html, "name", "twitter:image")).toBe(`${SITE_URL}/og-image.png`);
  });

  it("serves the social image as a 1200x630 PNG", async () => {
    const res = await fetch(`${server.url}/og-image.png`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    const png = Buffer.from(await res.arrayBuffer());
    expect(png.subarray(1, 4).toString("latin1")).toBe("PNG");
    expect(png.readUInt32BE(16)).toBe(1200);
    expect(png.readUInt32BE(20)).toBe(630);
  });

  it("links favicons and a manifest, and none of them 404s", async () => {
    const hrefs = [
      ...linkHrefs(html, "icon"),
      ...linkHrefs(html, "apple-touch-icon"),
      ...linkHrefs(html, "manifest"),
      "/favicon.ico",
    ];
    expect(hrefs).toEqual(
      expect.arrayContaining(["/favicon.svg", "/favicon.ico", "/apple-touch-icon.png", "/site.webmanifest"]),
    );
    for (const href of new Set(hrefs)) {
      const res = await fetch(new URL(href, server.url));
      expect(res.status, href).toBe(200);
      expect(res.headers.get("content-type"), href).toMatch(
        /image\/(svg\+xml|png|x-icon|vnd\.microsoft\.icon)|application\/manifest\+json|application\/json/,
      );
      await res.arrayBuffer();
    }
    const apple = Buffer.from(await (await fetch(`${server.url}/apple-touch-icon.png`)).arrayBuffer());
    expect([apple.readUInt32BE(16), apple.readUInt32BE(20)]).toEqual([180, 180]);
    const ico = Buffer.from(await (await fetch(`${server.url}/favicon.ico`)).arrayBuffer());
    expect(ico.readUInt16LE(2)).toBe(1); // an icon
    expect(ico.readUInt8(6)).toBe(32); // 32 px wide
  });

  it("has a web manifest whose 192 and 512 icons exist", async () => {
    const manifest = (await (await fetch(`${server.url}/site.webmanifest`)).json()) as {
      name: string;
      start_url: string;
      theme_color: string;
      icons: { src: string; sizes: string; type: string }[];
    };
    expect(manifest.name).toBe(site.brandName);
    expect(manifest.start_url).toBe("/");
    expect(manifest.theme_color).toBe(metaContent(html, "name", "theme-color"));
    expect(manifest.icons.map((icon) => icon.sizes)).toEqual(expect.arrayContaining(["192x192", "512x512"]));
    for (const icon of manifest.icons) {
      const res = await fetch(new URL(icon.src, server.url));
      expect(res.status, icon.src).toBe(200);
      const png = Buffer.from(await res.arrayBuffer());
      const [width] = icon.sizes.split("x").map(Number);
      expect(png.readUInt32BE(16), icon.src).toBe(width);
    }
  });

  it("describes the business as a ProfessionalService in Cincinnati, OH, with its e-mail and services", () => {
    const business = jsonLd(html).find((block) => block["@type"] === "ProfessionalService") as
      | (Record<string, unknown> & {
          hasOfferCatalog: { itemListElement: { itemOffered: { name: string } }[] };
        })
      | undefined;
    expect(business).toBeDefined();
    expect(business!["@context"]).toBe("https://schema.org");
    expect(business!.name).toBe(site.brandName);
    expect(business!.url).toBe(`${SITE_URL}/`);
    expect(business!.email).toBe(site.email);
    expect(business!.address).toMatchObject({
      "@type": "PostalAddress",
      addressLocality: "Cincinnati",
      addressRegion: "OH",
      addressCountry: "US",
    });
    const offered = business!.hasOfferCatalog.itemListElement.map((offer) => offer.itemOffered.name);
    expect(offered).toEqual(services.map((service) => service.title));
    expect(offered).toHaveLength(6);
    // What structured data claims must be on the page too.
    const text = visibleText(html);
    for (const title of offered) expect(text).toContain(title);
    expect(text).toContain(site.email);
  });

  it("has an FAQPage with the 8 questions and answers shown on the page", () => {
    const faqPage = jsonLd(html).find((block) => block["@type"] === "FAQPage") as
      Record<string, unknown> | undefined;
    expect(faqPage).toBeDefined();
    const entries = faqPage!.mainEntity as {
      "@type": string;
      name: string;
      acceptedAnswer: { "@type": string; text: string };
    }[];
    expect(entries).toHaveLength(8);
    expect(entries.map((entry) => entry.name)).toEqual(faqs.map((faq) => faq.question));
    expect(entries.map((entry) => entry.acceptedAnswer.text)).toEqual(faqs.map((faq) => faq.answer));
    for (const entry of entries) {
      expect(entry["@type"]).toBe("Question");
      expect(entry.acceptedAnswer["@type"]).toBe("Answer");
    }
    const text = visibleText(html);
    for (const faq of faqs) expect(text).toContain(faq.question);
  });

  it("serves robots.txt allowing the site and naming the sitemap", async () => {
    const res = await fetch(`${server.url}/robots.txt`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/plain");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    const body = await res.text();
    expect(body).toMatch(/^User-agent: \*$/m);
    expect(body).toMatch(/^Allow: \/$/m);
    expect(body).not.toMatch(/^Disallow: \/$/m);
    expect(body).toContain(`Sitemap: ${SITE_URL}/sitemap.xml`);
  });

  it("serves sitemap.xml listing the home page and the privacy page at SITE_URL", async () => {
    const res = await fetch(`${server.url}/sitemap.xml`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/xml");
    const body = await res.text();
    expect(body.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
    expect(body).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    expect([...body.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1])).toEqual([
      `${SITE_URL}/`,
      `${SITE_URL}/privacy`,
    ]);
  });

  it("gives the privacy page its canonical URL at SITE_URL and a title ending with the brand", async () => {
    const page = await (await fetch(`${server.url}/privacy`)).text();
    expect(linkHrefs(page, "canonical")).toEqual([`${SITE_URL}/privacy`]);
    expect(/<title>([^<]*)<\/title>/.exec(page)?.[1]).toBe(`Privacy Policy | ${site.brandName}`);
    expect(metaContent(page, "name", "robots")).toBeUndefined();
  });

  it("marks the 404 page noindex, without a canonical URL", async () => {
    const res = await fetch(`${server.url}/missing-page`);
    expect(res.status).toBe(404);
    const page = await res.text();
    expect(metaContent(page, "name", "robots")).toBe("noindex");
    expect(linkHrefs(page, "canonical")).toEqual([]);
    expect(linkHrefs(page, "icon").length).toBeGreaterThan(0);
  });
});
