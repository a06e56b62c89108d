import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { contactFormText } from "~/content/contact-form";
import { site } from "~/content/site";
import { contactSchema } from "~/lib/contact/schema";
import { CACHE_CONTROL } from "~/lib/security/headers.server";

import { type AppServer, startAppServer, useAppWithFunction } from "../support/app-server";
import { type Doc, parseHtml as parse } from "../support/html";

/**
 * /privacy (issue 41, decision 043) as the production server sends it: through the document
 * pipeline (baseline headers, its own script-hash policy), complete without JavaScript, and
 * stating what this server's configuration decides: a server started with other values says
 * other things.
 */

const squash = (text: string | null | undefined) => (text ?? "").replace(/\s+/g, " ").trim();

/** The page's text as a reader gets it (no-break spaces read as spaces). */
const textOf = (doc: Doc, selector = "main") =>
  squash(doc.querySelector(selector)?.textContent?.replace(/\u00a0/g, " "));

interface Page {
  res: Response;
  html: string;
  doc: Doc;
  main: string;
}

async function getPage(server: AppServer, path = "/privacy"): Promise<Page> {
  const res = await fetch(`${server.url}${path}`);
  const html = await res.text();
  const doc = parse(html);
  return { res, html, doc, main: textOf(doc) };
}

describe("/privacy with nothing configured (the defaults: no function, no controller, no analytics)", () => {
  let server: AppServer;
  let page: Page;
  beforeAll(async () => {
    server = await startAppServer({
      GA_MEASUREMENT_ID: "",
      PRIVACY_CONTROLLER_NAME: "",
      PRIVACY_CONTROLLER_ADDRESS: "",
      PRIVACY_CONTACT_EMAIL: "",
      PRIVACY_HOSTING_PROVIDER: "",
      PRIVACY_EMAIL_PROVIDER: "",
      SITE_URL: "https://agency.example.com",
    });
    page = await getPage(server);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("answers 200 with a document that went through the document pipeline: baseline headers, its scripts' hashes, cached as a page", () => {
    const { res } = page;
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe(CACHE_CONTROL.page);
    const policy = res.headers.get("content-security-policy") ?? "";
    expect(policy).toMatch(/script-src (?:'sha256-[A-Za-z0-9+/]{43}=' )+'strict-dynamic'/);
    expect(policy).not.toMatch(/nonce-|unsafe-inline|googletagmanager/);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    expect(res.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(res.headers.get("permissions-policy")).toBeTruthy();
    // The pipeline moved React's trailing scripts into <body> and held the bootstrap (decision 022).
    expect(page.html.trimEnd().endsWith("</html>")).toBe(true);
    expect(page.doc.querySelector('script[type="application/json"]')).not.toBeNull();
  });

  it("has a title ending with the brand, its own description and a canonical URL at SITE_URL", () => {
    const { doc } = page;
    expect(doc.title).toBe(`Privacy Policy | ${site.brandName}`);
    expect(doc.querySelector('meta[name="description"]')?.getAttribute("content")).toMatch(/contact form/);
    expect(
      Array.from(doc.querySelectorAll('link[rel="canonical"]')).map((link) => link.getAttribute("href")),
    ).toEqual(["https://agency.example.com/privacy"]);
  });

  it("is the site's page: skip link, header, one h1 in main#main, footer; every section link leads to the home page", () => {
    const { doc } = page;
    expect(doc.querySelector('a[href="#main"]')).not.toBeNull();
    expect(doc.querySelector("header a[href='/']")).not.toBeNull();
    expect(doc.querySelectorAll("h1")).toHaveLength(1);
    expect(doc.querySelector("main#main h1")).not.toBeNull();
    const footer = doc.querySelector("body > footer");
    expect(footer).not.toBeNull();
    const sectionLinks = Array.from(doc.querySelectorAll("header a, footer a"))
      .map((a) => a.getAttribute("href") ?? "")
      .filter((href) => href.includes("#") && href !== "#" && !/^#(mobile-menu|menu-toggle)$/.test(href));
    expect(sectionLinks.length).toBeGreaterThan(5);
    for (const href of sectionLinks) expect(href).toMatch(/^\/#[a-z]/);
    const privacyLink = Array.from(footer!.querySelectorAll("a")).find(
      (a) => squash(a.textContent) === "Privacy Policy",
    );
    expect(privacyLink?.getAttribute("href")).toBe("/privacy");
    expect(privacyLink?.getAttribute("aria-current")).toBe("page");
  });

  it("headings go down one level at a time, and every in-page link has its target", () => {
    const levels = Array.from(page.doc.querySelectorAll("h1, h2, h3, h4")).map((h) => Number(h.tagName[1]));
    levels.reduce((previous, level) => {
      expect(level).toBeLessThanOrEqual(previous + 1);
      return level;
    }, 1);
    for (const a of Array.from(page.doc.querySelectorAll("main a[href^='#']"))) {
      const id = a.getAttribute("href")!.slice(1);
      expect(page.doc.getElementById(id), id).not.toBeNull();
    }
  });

  it("names every field of the form's schema by its label, and says which are required", () => {
    const fields = Object.keys(contactSchema.shape) as (keyof typeof contactFormText.fields)[];
    expect(fields.length).toBeGreaterThanOrEqual(8);
    const terms = Array.from(page.doc.querySelectorAll("#fields dt")).map((dt) => squash(dt.textContent));
    for (const field of fields) {
      const label = contactFormText.fields[field].label;
      expect(page.main, field).toContain(label);
      expect(
        terms.some((term) => term.startsWith(label)),
        field,
      ).toBe(true);
    }
    expect(terms).toContain(`${contactFormText.fields.email.label} (required)`);
    expect(terms).toContain(`${contactFormText.fields.phone.label} (optional)`);
  });

  it("says plainly that the controller is not published, marked, never a made-up value", () => {
    const controller = page.doc.querySelector("#controller")!;
    expect(controller.querySelectorAll("[data-unpublished]")).toHaveLength(3);
    expect(textOf(page.doc, "#controller")).toContain(
      "The operator of this site has not published this yet.",
    );
    expect(textOf(page.doc, "#rights")).toContain("The operator has not published a privacy contact yet.");
    const hosting = page.doc.querySelector("#recipients li");
    expect(squash(hosting?.textContent)).toMatch(/^HostingNot named yet runs the server/);
    expect(hosting?.querySelector("[data-unpublished]")).not.toBeNull();
  });

  it("without a function: requests stay in the site's database, kept until a person erases them; spam after 30 days", () => {
    expect(textOf(page.doc, "#recipients")).toContain("Your request is not sent anywhere");
    expect(textOf(page.doc, "#recipients")).not.toContain("Supabase");
    const retention = textOf(page.doc, "#retention");
    expect(retention).toContain("its only copy, until a person at the agency erases it");
    expect(retention).toContain("erased after 30 days");
    expect(retention).not.toMatch(/\b90 days\b/);
  });

  it("states the limits' use of IP addresses as configured (5 per 10 minutes, in memory without PostgreSQL)", () => {
    const ip = textOf(page.doc, "#ip-address");
    expect(ip).toContain("at most 5 submissions per 10 minutes from one sender, and 60 a minute");
    expect(ip).toContain("the address your connection comes from");
    expect(ip).toContain("kept only in the server's memory");
  });

  it("says no cookies, and the server sets none", async () => {
    expect(textOf(page.doc, "#cookies")).toContain("This site sets no cookies");
    expect(page.html).not.toContain("gtag");
    expect(page.res.headers.get("set-cookie")).toBeNull();
    expect((await fetch(`${server.url}/`)).headers.get("set-cookie")).toBeNull();
  });

  it("what it says of the request log is what the server writes: method, path, status and duration, no address", async () => {
    expect(textOf(page.doc, "#ip-address")).toContain(
      "the method, the path (never the query string), the status and how long it took. No IP address",
    );
    await fetch(`${server.url}/privacy?from=test`, { headers: { "user-agent": "privacy-test-agent" } });
    const lines = server
      .output()
      .split("\n")
      .filter((line) => line.startsWith('{"event":"request"'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const line = lines.filter((entry) => entry.path === "/privacy").at(-1);
    expect(line).toBeDefined();
    expect(Object.keys(line!).sort()).toEqual(["durationMs", "event", "method", "path", "status"]);
    expect(JSON.stringify(lines)).not.toMatch(/127\.0\.0\.1|privacy-test-agent|from=test/);
  });

  it("the contact form links to it right under its submit button, with and without JavaScript (the same HTML)", async () => {
    const home = await getPage(server, "/");
    const button = home.doc.querySelector('#contact-form button[type="submit"]');
    expect(button).not.toBeNull();
    const next = button!.nextElementSibling;
    expect(next?.tagName).toBe("P");
    const link = next!.querySelector("a");
    expect(link?.getAttribute("href")).toBe("/privacy");
    expect(squash(link?.textContent)).toBe(contactFormText.privacyNotice.label);
  });

  it("is in the sitemap", async () => {
    const sitemap = await (await fetch(`${server.url}/sitemap.xml`)).text();
    expect(sitemap).toContain("<loc>https://agency.example.com/privacy</loc>");
  });
});

describe("/privacy with a function, LEADS_RETENTION_DAYS=37, the controller, the processors and analytics configured", () => {
  const app = useAppWithFunction({
    LEADS_RETENTION_DAYS: "37",
    LEADS_SPAM_RETENTION_DAYS: "12",
    PRIVACY_CONTROLLER_NAME: "Example Agency LLC",
    PRIVACY_CONTROLLER_ADDRESS: "100 Example Street, Cincinnati, OH 45202, USA",
    PRIVACY_CONTACT_EMAIL: "privacy-requests-for-a-very-long-name@agency-with-a-long-domain.example.com",
    PRIVACY_HOSTING_PROVIDER: "Example Cloud GmbH",
    PRIVACY_EMAIL_PROVIDER: "Example Mail Inc.",
    GA_MEASUREMENT_ID: "G-ABC123DEF4",
    RATE_LIMIT_PER_CLIENT: "3",
    RATE_LIMIT_WINDOW_SECONDS: "3600",
    TRUST_PROXY: "1",
  });
  let page: Page;
  beforeAll(async () => {
    page = await getPage(app.server);
  });

  it("says 37 days for requests the agency received, in the summary and the detail, and 12 for spam", () => {
    expect(textOf(page.doc, "section[aria-labelledby='summary-heading']")).toContain(
      "erased 37 days after the agency received it",
    );
    expect(textOf(page.doc, "#retention")).toContain(
      "are erased 37 days after the agency's function confirmed",
    );
    expect(textOf(page.doc, "#retention")).toContain("Requests not delivered yet");
    expect(textOf(page.doc, "#retention")).toContain("erased after 12 days");
  });

  it("names the controller as configured, with the privacy e-mail as a link, and nothing marked missing", () => {
    const controller = textOf(page.doc, "#controller");
    expect(controller).toContain("Example Agency LLC");
    expect(controller).toContain("100 Example Street, Cincinnati, OH 45202, USA");
    const email = "privacy-requests-for-a-very-long-name@agency-with-a-long-domain.example.com";
    expect(page.doc.querySelectorAll(`a[href="mailto:${email}"]`)).toHaveLength(2);
    expect(page.doc.querySelectorAll("[data-unpublished], [data-unpublished-note]")).toHaveLength(0);
    expect(page.main).not.toContain("not published");
    expect(page.main).not.toContain("Not named yet");
  });

  it("names the processors: the host, Supabase for the function, the e-mail provider, Google for analytics", () => {
    const recipients = textOf(page.doc, "#recipients");
    for (const name of [
      "Example Cloud GmbH",
      "Supabase",
      "send-contact-email",
      "Example Mail Inc.",
      "Google",
    ])
      expect(recipients).toContain(name);
  });

  it("describes Google Analytics and its cookies, which the page really loads", () => {
    const cookies = textOf(page.doc, "#cookies");
    expect(cookies).toContain("Google Analytics 4 (measurement ID G-ABC123DEF4)");
    expect(cookies).toContain("_ga and _ga_ABC123DEF4");
    expect(cookies).toContain("form_submit");
    expect(textOf(page.doc, "#purposes")).toContain("Google Analytics");
    expect(page.html).toContain("gtag('config',\"G-ABC123DEF4\")");
    expect(page.res.headers.get("content-security-policy")).toContain("https://www.googletagmanager.com");
  });

  it("states the limits as configured: 3 per hour, the address the proxy reports", () => {
    const ip = textOf(page.doc, "#ip-address");
    expect(ip).toContain("at most 3 submissions per hour from one sender");
    expect(ip).toContain("the address the proxy in front of this site reports");
  });
});
