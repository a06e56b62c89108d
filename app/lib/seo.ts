import type { LinkDescriptor, MetaDescriptor } from "@remix-run/node";

import { seo } from "~/content/seo";
import { site } from "~/content/site";

/** `path` on the public site (SITE_URL has no trailing slash; env.server strips it). */
export function absoluteUrl(siteUrl: string, path: string): string {
  return `${siteUrl.replace(/\/+$/, "")}${path.startsWith("/") ? path : `/${path}`}`;
}

/** Tags every document carries; the home route adds its canonical URL and sharing tags. */
export function documentMeta(): MetaDescriptor[] {
  return [
    { title: site.title },
    { name: "description", content: site.description },
    { name: "theme-color", content: seo.themeColor },
  ];
}

/** Icons and manifest, for every page (all files live in public/). */
export function documentLinks(): LinkDescriptor[] {
  return [
    { rel: "icon", href: "/favicon.ico", sizes: "32x32" },
    { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
    { rel: "apple-touch-icon", href: "/apple-touch-icon.png" },
    { rel: "manifest", href: "/site.webmanifest" },
  ];
}

/** The home page's canonical URL, Open Graph and Twitter card. */
export function homeMeta(siteUrl: string): MetaDescriptor[] {
  const url = absoluteUrl(siteUrl, "/");
  const image = absoluteUrl(siteUrl, seo.socialImage.path);
  return [
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:type", content: "website" },
    { property: "og:site_name", content: site.brandName },
    { property: "og:locale", content: seo.locale },
    { property: "og:url", content: url },
    { property: "og:title", content: site.title },
    { property: "og:description", content: site.description },
    { property: "og:image", content: image },
    { property: "og:image:type", content: "image/png" },
    { property: "og:image:width", content: String(seo.socialImage.width) },
    { property: "og:image:height", content: String(seo.socialImage.height) },
    { property: "og:image:alt", content: seo.socialImage.alt },
    { name: "twitter:card", content: "summary_large_image" },
    { name: "twitter:title", content: site.title },
    { name: "twitter:description", content: site.description },
    { name: "twitter:image", content: image },
    { name: "twitter:image:alt", content: seo.socialImage.alt },
  ];
}

/** Another page of the site: its title (ending with the brand), description and canonical URL. */
export function pageMeta(
  siteUrl: string,
  page: { title: string; description: string; path: `/${string}` },
): MetaDescriptor[] {
  return [
    { title: page.title },
    { name: "description", content: page.description },
    { name: "theme-color", content: seo.themeColor },
    { tagName: "link", rel: "canonical", href: absoluteUrl(siteUrl, page.path) },
  ];
}

export function robotsTxt(siteUrl: string): string {
  return [
    "User-agent: *",
    "Allow: /",
    ...seo.robots.disallow.map((path) => `Disallow: ${path}`),
    "",
    `Sitemap: ${absoluteUrl(siteUrl, "/sitemap.xml")}`,
    "",
  ].join("\n");
}

const escapeXml = (value: string) =>
  value.replace(
    /[<>&'"]/g,
    (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", "'": "&apos;", '"': "&quot;" })[c] ?? c,
  );

/** The site's pages: the home page, and the privacy page (decision 043). */
export const SITEMAP_PAGES = [
  { path: "/", changefreq: "monthly", priority: "1.0" },
  { path: "/privacy", changefreq: "yearly", priority: "0.3" },
] as const;

export function sitemapXml(siteUrl: string): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...SITEMAP_PAGES.map(
      (page) =>
        `  <url><loc>${escapeXml(absoluteUrl(siteUrl, page.path))}</loc><changefreq>${page.changefreq}</changefreq><priority>${page.priority}</priority></url>`,
    ),
    "</urlset>",
    "",
  ].join("\n");
}
