import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { claims } from "~/content/claims";
import { communityStats, tiers } from "~/content/community";
import { faqs } from "~/content/faq";
import { services } from "~/content/services";
import { site } from "~/content/site";
import { testimonials } from "~/content/testimonials";
import { initials } from "~/lib/initials";

import { type AppServer, startAppServer } from "../support/app-server";
import { type Doc, parseHtml as parse } from "../support/html";
import { CONTACT_FIELDS } from "~/content/contact-fields";

/** The page footer (testimonial cards have their own `<footer>` inside `<article>`). */
const pageFooter = (doc: Doc) =>
  Array.from(doc.querySelectorAll("footer")).find((footer) => !footer.closest("article"));

const squash = (text: string | null | undefined) => (text ?? "").replace(/\s+/g, " ").trim();

describe("home page HTML (server-rendered, no JavaScript)", () => {
  let server: AppServer;
  let doc: Doc;
  let pageText: string;

  beforeAll(async () => {
    server = await startAppServer();
    doc = parse(await (await fetch(server.url + "/")).text());
    pageText = squash(doc.body.textContent);
  });
  afterAll(async () => {
    await server?.stop();
  });

  const linksTo = (href: string) => Array.from(doc.querySelectorAll(`a[href="${href}"]`));
  const textOf = (selector: string) => squash(doc.querySelector(selector)?.textContent);

  it("puts the sections in the spec's order inside <main id=main>, then the footer", () => {
    const main = doc.querySelector("main#main");
    expect(main).not.toBeNull();
    const sections = Array.from(main!.querySelectorAll(":scope > section"));
    const ids = sections.map((section) => section.id);
    // The hero comes first and needs no id.
    expect(sections[0]?.querySelector("h1")).not.toBeNull();
    const shown = ["services", "about", "community", "testimonials"];
    expect(ids.slice(1, 5)).toEqual(shown);
    const contact = ids.indexOf("contact");
    const faq = ids.indexOf("faq");
    expect(contact).toBeGreaterThan(5); // at least one unshown section after testimonials
    expect(faq - contact - 1).toBe(2); // exactly two unshown sections between contact and FAQ
    expect(faq).toBe(ids.length - 1);
    for (const id of ids.slice(1)) expect(id, "every section after the hero is anchored").not.toBe("");
    expect(new Set(ids).size).toBe(ids.length);
    const footer = pageFooter(doc);
    expect(footer).not.toBeNull();
    expect(main!.compareDocumentPosition(footer!) & 4).toBe(4);
  });

  it("starts the body with a skip link to #main", () => {
    const first = doc.body.querySelector("a[href]");
    expect(first?.getAttribute("href")).toBe("#main");
    expect(squash(first?.textContent)).toBe("Skip to main content");
  });

  it("has the h1 in the hero and one h1 only", () => {
    expect(doc.querySelectorAll("h1")).toHaveLength(1);
  });

  it("labels the fixed header's links exactly and points them at their sections", () => {
    const header = doc.querySelector("header");
    expect(header).not.toBeNull();
    const expected: [string, string][] = [
      ["Solutions", "#services"],
      ["Insiders", "#community"],
      ["About", "#about"],
      ["Reviews", "#testimonials"],
      ["Contact", "#contact"],
      ["Get Started", "#contact"],
    ];
    const primary = Array.from(header!.querySelectorAll("nav[aria-label='Primary'] a, a")).map(
      (a) => [squash(a.textContent), a.getAttribute("href")] as [string, string | null],
    );
    for (const pair of expected) expect(primary).toContainEqual(pair);
    for (const [, href] of expected) expect(doc.getElementById(href.slice(1))).not.toBeNull();
  });

  it("ships a mobile menu that opens and closes without JavaScript (links to and away from its panel) named Menu", () => {
    const menu = doc.getElementById("mobile-menu");
    expect(menu).not.toBeNull();
    const header = doc.querySelector("header")!;
    const opener = header.querySelector('a[href="#mobile-menu"]');
    expect(squash(opener?.textContent)).toBe("Menu");
    expect(opener?.getAttribute("aria-controls")).toBe("mobile-menu");
    const closer = header.querySelector(`a[href="#${opener?.id}"]`);
    expect(squash(closer?.textContent)).toBe("Close menu");
    const labels = Array.from(menu!.querySelectorAll("a")).map((a) => squash(a.textContent));
    expect(labels).toEqual(["Solutions", "Insiders", "About", "Reviews", "Contact", "Get Started"]);
  });

  it("links the hero's two calls to action to #contact and #community", () => {
    const hero = doc.querySelector("main#main > section")!;
    const links = Array.from(hero.querySelectorAll("a")).map((a) => [
      squash(a.textContent),
      a.getAttribute("href"),
    ]);
    expect(links).toContainEqual(["Transform Your Business with AI", "#contact"]);
    expect(links).toContainEqual(["Join the Community", "#community"]);
  });

  it("opens every external link in a new tab with rel=noopener noreferrer", () => {
    const external = Array.from(doc.querySelectorAll("a[href^='http']"));
    expect(external.length).toBeGreaterThanOrEqual(8);
    for (const a of external) {
      expect(a.getAttribute("target"), a.getAttribute("href")!).toBe("_blank");
      expect(a.getAttribute("rel")?.split(/\s+/).sort()).toEqual(["noopener", "noreferrer"]);
    }
    for (const a of Array.from(doc.querySelectorAll("a[target='_blank']"))) {
      expect(a.getAttribute("href")).toMatch(/^https:\/\//);
    }
  });

  it("sends the tier buttons, the Discord and social tiles and the footer socials to the right addresses", () => {
    const community = doc.getElementById("community")!;
    const tierLinks = Array.from(community.querySelectorAll("article a"));
    expect(tierLinks.map((a) => a.getAttribute("href"))).toEqual([
      site.links.communityChat,
      site.links.membershipCheckout,
      site.links.membershipCheckout,
    ]);
    const tile = (title: string) =>
      Array.from(community.querySelectorAll("a")).find((a) => squash(a.textContent).startsWith(title));
    expect(tile("Discord")?.getAttribute("href")).toBe(site.links.communityChat);
    expect(tile("Success Stories")?.getAttribute("href")).toBe("#testimonials");
    expect(tile("Success Stories")?.getAttribute("target")).toBeNull();
    const communityHrefs = Array.from(community.querySelectorAll("a")).map((a) => a.getAttribute("href"));
    expect(communityHrefs).toContain(site.links.imageSharingProfile);
    expect(communityHrefs).toContain(site.links.shortVideoProfile);
    const footer = pageFooter(doc)!;
    const footerHrefs = Array.from(footer.querySelectorAll("a[target='_blank']")).map((a) =>
      a.getAttribute("href"),
    );
    expect(footerHrefs).toEqual([site.links.imageSharingProfile, site.links.shortVideoProfile]);
    for (const a of Array.from(footer.querySelectorAll("a[target='_blank']"))) {
      expect(a.getAttribute("aria-label")).toBeTruthy();
    }
  });

  it("renders the six services with titles, descriptions and features", () => {
    const section = squash(doc.getElementById("services")?.textContent);
    const titles = Array.from(doc.querySelectorAll("#services h3")).map((h) => squash(h.textContent));
    expect(titles).toEqual(services.map((service) => service.title));
    for (const service of services) {
      expect(section).toContain(service.description);
      for (const feature of service.features) expect(section).toContain(feature);
    }
  });

  it("renders the three tiers with prices per month, Most Popular on Insiders, and the community stats", () => {
    const articles = Array.from(doc.querySelectorAll("#community article")).map((a) => squash(a.textContent));
    expect(articles).toHaveLength(3);
    tiers.forEach((tier, index) => {
      const text = articles[index]!;
      expect(text).toContain(tier.name);
      expect(text).toContain(`${tier.price}/month`);
      expect(text).toContain(tier.description);
      for (const feature of tier.features) expect(text).toContain(feature);
      expect(text.includes("Most Popular")).toBe(tier.popular);
    });
    const community = textOf("#community");
    for (const stat of communityStats) expect(community).toContain(`${stat.number} ${stat.label}`);
  });

  it("has the six real testimonials in the HTML, with rating text and initials, and no skeletons", () => {
    const cards = Array.from(doc.querySelectorAll("#testimonials article[data-testimonial]"));
    expect(cards).toHaveLength(6);
    testimonials.forEach((testimonial, index) => {
      const text = squash(cards[index]!.textContent);
      expect(text).toContain(testimonial.name);
      expect(text).toContain(testimonial.role);
      expect(text).toContain(squash(testimonial.content));
      expect(text).toContain("Rated 5 out of 5");
      expect(text).toContain(initials(testimonial.name));
      expect(cards[index]!.className).not.toContain("invisible");
    });
    expect(doc.querySelectorAll("[data-skeleton]")).toHaveLength(0);
  });

  it("renders the contact section: form fields, mailto, Cincinnati, OH and the 24-48 hour promise", () => {
    const contact = doc.getElementById("contact")!;
    const form = contact.querySelector("form")!;
    expect(form.getAttribute("method")).toBe("post");
    const names = Array.from(form.querySelectorAll("input, select, textarea"))
      .map((field) => field.getAttribute("name"))
      .filter(Boolean);
    for (const { name } of CONTACT_FIELDS) {
      expect(names).toContain(name);
      const field = form.querySelector(`[name="${name}"]`)!;
      expect(form.querySelector(`label[for="${field.id}"]`), `label for ${name}`).not.toBeNull();
    }
    expect(form.querySelector('[name="name"]')?.getAttribute("maxlength")).toBe("100");
    expect(form.querySelector('[name="message"]')?.getAttribute("maxlength")).toBe("2000");
    const sizes = Array.from(form.querySelectorAll('select[name="companySize"] option')).map((o) =>
      o.getAttribute("value"),
    );
    expect(sizes).toEqual(["", "1-10", "11-50", "51-200", "201-1000", "1000+"]);
    const text = squash(contact.textContent);
    expect(text).toContain("0/2000");
    expect(text).toContain("Send Message");
    expect(contact.querySelector(`a[href="mailto:${site.email}"]`)).not.toBeNull();
    expect(text).toContain("Cincinnati, OH");
    expect(text).toMatch(/24-48 hours/);
    expect(text).toMatch(/free consultation included/i);
  });

  it("puts all eight FAQ questions and answers in the HTML, reachable without JavaScript", () => {
    const faq = doc.getElementById("faq")!;
    const text = squash(faq.textContent);
    for (const entry of faqs) {
      expect(text).toContain(entry.question);
      expect(text).toContain(entry.answer);
    }
    // Every answer sits in a native disclosure, and 4 of the 8 are outside "View More Questions".
    const items = Array.from(faq.querySelectorAll("details[data-faq-item]"));
    expect(items).toHaveLength(8);
    const more = faq.querySelector("details[data-faq-more]")!;
    expect(squash(more.querySelector("summary")?.textContent)).toContain("View More Questions");
    expect(more.querySelectorAll("details[data-faq-item]")).toHaveLength(4);
    expect(faq.querySelector(`a[href="mailto:${site.email}"]`)).not.toBeNull();
  });

  it("states every marketing claim of the spec somewhere on the page", () => {
    const lower = pageText.toLowerCase();
    for (const claim of Object.values(claims)) expect(lower, claim).toContain(claim.toLowerCase());
  });

  it("gives the footer its five section links, two socials, the privacy page and the two placeholder legal links", () => {
    const footer = pageFooter(doc)!;
    const hrefs = Array.from(footer.querySelectorAll("a")).map((a) => a.getAttribute("href"));
    for (const target of ["#services", "#about", "#community", "#testimonials", "#contact"]) {
      expect(hrefs).toContain(target);
    }
    // docs/requirements.md, section 6: the privacy page is the site's own; the other two wait for the agency's texts.
    for (const [label, href] of [
      ["Privacy Policy", "/privacy"],
      ["Terms of Service", "#"],
      ["AI Ethics", "#"],
    ]) {
      const link = Array.from(footer.querySelectorAll("a")).find((a) => squash(a.textContent) === label);
      expect(link?.getAttribute("href"), label).toBe(href);
      expect(link?.hasAttribute("aria-current"), label).toBe(false);
    }
  });

  it("uses no inline style attributes (the CSP allows none)", () => {
    expect(doc.querySelectorAll("[style]")).toHaveLength(0);
  });

  it("links to in-page targets that all exist", () => {
    const anchors = Array.from(doc.querySelectorAll("a[href^='#']"))
      .map((a) => a.getAttribute("href")!)
      .filter((href) => href !== "#");
    for (const href of new Set(anchors)) expect(doc.getElementById(href.slice(1)), href).not.toBeNull();
    expect(linksTo("#testimonials").length).toBeGreaterThanOrEqual(3);
  });

  // Its status, title, home link, noindex and log line: bad-urls.test.ts and seo.test.ts.
  it("says on the 404 page that the page doesn't exist or has moved", async () => {
    const res = await fetch(server.url + "/no/such-page");
    expect(res.status).toBe(404);
    expect(squash(parse(await res.text()).body.textContent)).toMatch(/404.*doesn't exist or has moved/);
  });
});
