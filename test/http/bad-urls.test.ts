import { describe, expect, it } from "vitest";

import { site } from "~/content/site";

import { useAppWithFunction } from "../support/app-server";
import { parseHtml as parse } from "../support/html";
import { wire } from "../support/wire";

/**
 * Bad URLs get the site's answer (issue 18): a path that is not valid percent-encoding gets the
 * site's own 400 page, Remix's old `?_data=` protocol a 400 before anything runs, and the log says
 * status and path in one JSON line, with no stack trace.
 */

const squash = (text: string | null | undefined) => (text ?? "").replace(/\s+/g, " ").trim();

/** The headers that describe a document, with its script hashes (its own scripts' text) taken out. */
function documentHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const ignored = new Set(["date", "content-length", "connection", "keep-alive", "etag", "x-request-id"]);
  return Object.fromEntries(
    Object.entries(headers)
      .filter(([name]) => !ignored.has(name))
      .map(([name, value]) => [name, String(value).replace(/'sha256-[^']+'/g, "'sha256-…'")])
      .sort(([a], [b]) => String(a).localeCompare(String(b))),
  );
}

const form = new URLSearchParams({
  name: "Grace Hopper",
  email: "grace@example.com",
  message: "Please automate our compiler paperwork, thank you.",
}).toString();

describe("bad URLs", () => {
  const app = useAppWithFunction();

  for (const path of ["/%", "/%zz/page", "/a%C0"]) {
    it(`GET ${path}: the site's own 400 page, with the 404's headers and policy`, async () => {
      const bad = await wire(`${app.server.url}${path}`, "identity");
      const notFound = await wire(`${app.server.url}/no/such/page`, "identity");
      expect(bad.status).toBe(400);
      expect(notFound.status).toBe(404);
      // Rendered for its request, never the cached home page's bytes: no ETag to revalidate.
      expect(notFound.headers.etag).toBeUndefined();
      expect(documentHeaders(bad.headers)).toEqual(documentHeaders(notFound.headers));
      expect(String(bad.headers["content-security-policy"])).toMatch(
        /script-src (?:'sha256-[A-Za-z0-9+/]{43}=' )+'strict-dynamic'/,
      );

      const doc = parse(bad.body.toString("utf8"));
      expect(doc.title).toBe(`Bad Request | ${site.brandName}`);
      const text = squash(doc.body.textContent);
      expect(text).toContain("400");
      expect(text).toContain("Bad Request");
      const home = Array.from(doc.querySelectorAll("a")).find(
        (a) => squash(a.textContent) === "Return to Home",
      );
      expect(home?.getAttribute("href")).toBe("/");
      expect(doc.querySelector('meta[name="robots"]')?.getAttribute("content")).toContain("noindex");
    });
  }

  // Issue 24: a broken link still lands on the site, not on a bare error page.
  for (const [path, status, name] of [
    ["/%", 400, "Bad Request"],
    ["/no/such/page", 404, "Page Not Found"],
  ] as const) {
    it(`GET ${path}: ${status} with the site's header (brand, home link, sections on the home page) and the brand in the title`, async () => {
      const res = await wire(`${app.server.url}${path}`, "identity");
      expect(res.status).toBe(status);
      const doc = parse(res.body.toString("utf8"));
      expect(doc.title).toBe(`${name} | ${site.brandName}`);
      expect(doc.title.endsWith(site.brandName)).toBe(true);

      const header = doc.querySelector("header");
      expect(header, "the site's header").not.toBeNull();
      const brand = Array.from(header!.querySelectorAll("a")).find((a) =>
        squash(a.textContent).includes(site.brandName),
      );
      expect(brand?.getAttribute("href"), "the brand links home").toBe("/");
      // The header's section links lead to the home page's sections, never to this page's fragments.
      const sectionLinks = Array.from(header!.querySelectorAll("a"))
        .map((a) => a.getAttribute("href") ?? "")
        .filter((href) => href.includes("#") && href !== "#main");
      expect(sectionLinks.length).toBeGreaterThan(0);
      for (const href of sectionLinks) {
        if (href.startsWith("#mobile-menu") || href.startsWith("#menu-toggle")) continue;
        expect(href, "a section of the home page").toMatch(/^\/#[a-z]/);
      }
      expect(doc.querySelector("main h1")?.textContent).toBe(name);
      const home = Array.from(doc.querySelectorAll("main a")).find(
        (a) => squash(a.textContent) === "Return to Home",
      );
      expect(home?.getAttribute("href")).toBe("/");
    });
  }

  it("a single-fetch data request for a malformed path or an unknown route: 4xx", async () => {
    expect((await wire(`${app.server.url}/%.data`, "identity")).status).toBe(400);
    expect((await wire(`${app.server.url}/no/such/page.data`, "identity")).status).toBe(404);
  });

  for (const query of ["?index&_data=routes%2F_index", "?_data=routes%2Fnope", "?_data=root"]) {
    it(`GET /${query}: 400, never a 500, with a deny-all policy`, async () => {
      const res = await wire(`${app.server.url}/${query}`, "identity");
      expect(res.status).toBe(400);
      expect(res.headers["content-type"]).toContain("application/json");
      expect(res.headers["content-security-policy"]).toMatch(/^default-src 'none'; /);
      expect(res.headers["x-content-type-options"]).toBe("nosniff");
    });
  }

  it("POST /?index&_data=routes%2F_index: 400 before the action runs (the function is never called)", async () => {
    app.fake.reset();
    const res = await wire(`${app.server.url}/?index&_data=routes%2F_index`, "identity", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: form,
    });
    expect(res.status).toBe(400);
    expect(app.fake.requests).toHaveLength(0);
  });

  it("logs each as one JSON line with status and path, and no stack trace", async () => {
    for (const path of ["/%", "/?index&_data=routes%2F_index", "/%.data", "/no/such/page"]) {
      await wire(`${app.server.url}${path}`, "identity");
    }
    const lines = app.server.output().split("\n");
    const requests = lines
      .filter((line) => line.startsWith('{"event":"request"'))
      .map((line) => JSON.parse(line));
    expect(requests).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ method: "GET", path: "/%", status: 400 }),
        expect.objectContaining({ method: "GET", path: "/", status: 400 }),
        expect.objectContaining({ method: "GET", path: "/%.data", status: 400 }),
        expect.objectContaining({ method: "GET", path: "/no/such/page", status: 404 }),
      ]),
    );
    expect(lines.filter((line) => /^\s+at /.test(line))).toEqual([]);
    expect(app.server.output()).not.toMatch(/URIError|Unexpected Server Error|should not be making \?_data/);
  });
});
