import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { CONTACT_FIELDS } from "~/content/contact-fields";
import { contactFormText } from "~/content/contact-form";
import { CACHE_CONTROL } from "~/lib/security/headers.server";

import { copyLastChanged } from "~/content/privacy-changed";

import { type AppServer, startAppServer, useAppWithFunction } from "../support/app-server";
import { type Doc, parseHtml as parse } from "../support/html";
import { describeWithPostgres, type PostgresServer, startPostgres } from "../support/postgres";

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

/** The detail's parts in the order of GDPR article 13(1)(a)-(f), then 13(2)(a)-(f) (decision 047). */
const ARTICLE_13_ORDER = [
  "controller",
  "dpo",
  "purposes",
  "interests",
  "recipients",
  "transfers",
  "retention",
  "rights",
  "consent",
  "complaint",
  "voluntary",
  "automated",
];

/**
 * False for some or all deployments: the database's provider holds requests, the proxy's access log
 * has the address, retention erases every state, and analytics needs consent.
 */
const FALSE_STATEMENTS = [
  /sent nowhere else/i,
  /not sent anywhere/i,
  /no log\b/i,
  /Nothing erases it automatically/i,
  /until a person at the agency erases it/i,
  /legitimate interest in knowing how the site is used/i,
  /used only to stop floods/i,
];

/** The page's parts, each found (the positive control of every "absent" check on its text). */
function expectArticle13(doc: Doc) {
  const ids = Array.from(doc.querySelectorAll("main section[id]")).map((section) => section.id);
  expect(ids).toEqual(ARTICLE_13_ORDER);
  for (const id of ARTICLE_13_ORDER) expect(textOf(doc, `#${id}`).length, id).toBeGreaterThan(60);
}

function expectNoFalseStatement(main: string) {
  // The checks read a page that says things (the parts above are there and long enough).
  expect(main).toContain("How long we keep it");
  for (const statement of FALSE_STATEMENTS) expect(main).not.toMatch(statement);
}

/** The rights, and how each is exercised: the copy is the leads export. */
function expectRightsAndHowTo(doc: Doc) {
  const rights = textOf(doc, "#rights");
  for (const right of ["Access", "Rectification", "Erasure", "Restriction", "Objection", "Portability"])
    expect(rights).toContain(`${right}:`);
  expect(rights).toContain("npm run leads -- export --email");
  expect(rights).toContain("npm run leads -- forget");
  expect(rights).toContain("we answer within one month");
  expect(textOf(doc, "#complaint")).toContain("supervisory authority");
  expect(textOf(doc, "#voluntary")).toContain("you are not obliged");
  expect(textOf(doc, "#automated")).toContain("scores every message for signs of spam");
  expect(textOf(doc, "#automated")).toContain("a person at the agency will look at the held messages");
}

function processorsOf(doc: Doc): Record<string, string> {
  return Object.fromEntries(
    Array.from(doc.querySelectorAll("#recipients [data-processor]")).map((li) => [
      li.getAttribute("data-processor")!,
      squash(li.textContent?.replace(/\u00a0/g, " ")),
    ]),
  );
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
      PRIVACY_HOSTING_REGION: "",
      PRIVACY_DPO: "",
      PRIVACY_TRANSFER_SAFEGUARDS: "",
      PRIVACY_LAST_CHANGED: "",
      SITE_URL: "https://agency.example.com",
    });
    page = await getPage(server);
  });
  afterAll(async () => {
    await server?.stop();
  });

  // Its baseline headers and script-hash policy: every-route and headers tests; title, canonical: seo.test.ts.
  it("answers 200 through the document pipeline, cached as a page, with its own description", () => {
    const { res } = page;
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe(CACHE_CONTROL.page);
    expect(res.headers.get("content-security-policy")).not.toContain("googletagmanager");
    // The pipeline moved React's trailing scripts into <body> and held the bootstrap (decision 022).
    expect(page.html.trimEnd().endsWith("</html>")).toBe(true);
    expect(page.doc.querySelector('script[type="application/json"]')).not.toBeNull();
    expect(page.doc.querySelector('meta[name="description"]')?.getAttribute("content")).toMatch(
      /contact form/,
    );
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

  it("names every field of the form by its label, says which are required and why it is asked", () => {
    const terms = Array.from(page.doc.querySelectorAll("#fields dt")).map((dt) => squash(dt.textContent));
    const purposes = Array.from(page.doc.querySelectorAll("#fields dd")).map((dd) => squash(dd.textContent));
    expect(terms).toEqual(
      CONTACT_FIELDS.map((field) => `${field.label} (${field.required ? "required" : "optional"})`),
    );
    expect(purposes).toEqual(CONTACT_FIELDS.map((field) => field.purpose));
  });

  it("says plainly that the controller, the DPO, the host and its place are not published, marked, never a made-up value", () => {
    const controller = page.doc.querySelector("#controller")!;
    expect(controller.querySelectorAll("[data-unpublished]")).toHaveLength(3);
    expect(textOf(page.doc, "#controller")).toContain(
      "The operator of this site has not published this yet.",
    );
    expect(textOf(page.doc, "#dpo")).toContain(
      "has not published yet whether it has a data protection officer",
    );
    expect(textOf(page.doc, "#rights")).toContain("The operator has not published a privacy contact yet.");
    const hosting = page.doc.querySelector("#recipients li");
    expect(squash(hosting?.textContent)).toMatch(/^HostingNot named yet runs the server/);
    expect(hosting?.querySelectorAll("[data-unpublished]")).toHaveLength(2);
    expect(textOf(page.doc, "#transfers")).toContain("What such a transfer rests on: Not published yet");
  });

  it("its parts follow article 13(1) and (2) in order, each answered; the rights say how to use them", () => {
    expectArticle13(page.doc);
    expectRightsAndHowTo(page.doc);
    expect(textOf(page.doc, "#consent")).toContain("Nothing this site does rests on your consent");
  });

  it("says when it last changed: the copy's day, ops having given none", () => {
    const time = page.doc.querySelector("[data-last-changed] time");
    expect(time?.getAttribute("datetime")).toBe(copyLastChanged);
    expect(squash(page.doc.querySelector("[data-last-changed]")?.textContent)).toMatch(
      /^Last changed: \d{1,2} [A-Z][a-z]+ \d{4}$/,
    );
  });

  it("SQLite, no function: the host alone holds the requests on its disk; every state has its period; the copies it cannot erase are named", () => {
    const processors = processorsOf(page.doc);
    expect(Object.keys(processors)).toEqual(["hosting"]);
    expect(processors.hosting).toContain("whose disk holds the site's database with your request");
    expect(textOf(page.doc, "#recipients")).not.toContain("Supabase");
    const retention = textOf(page.doc, "#retention");
    expect(retention).toContain(
      "Every request: kept in this site's database, where the agency reads it; its personal details (every field above) are erased 90 days after it arrived.",
    );
    expect(retention).toContain("erased 30 days after they arrived");
    expect(retention).toContain("Backups of the database that the operator makes keep an erased request");
    // The files of the release before the database: this release does not start beside them (decision 050).
    expect(retention).not.toContain("release from before its database");
    expect(retention).toContain("Erased content is overwritten in the site's database file");
    expect(retention).not.toContain("PostgreSQL");
    expectNoFalseStatement(page.main);
  });

  it("states the limits' use of IP addresses as configured (5 per 10 minutes, in memory without PostgreSQL), keyed by the address, and the host's logs", () => {
    const ip = textOf(page.doc, "#ip-address");
    expect(ip).toContain("at most 5 submissions per 10 minutes from one sender, and 60 a minute");
    expect(ip).toContain("the address your connection comes from");
    expect(ip).toContain("kept in the server's memory under that address (or its /64)");
    expect(ip).toContain("may log each request with your IP address and your browser's user agent");
  });

  it("says no cookies, and the server sets none; no consent bar and no Cookie settings without GA", async () => {
    expect(textOf(page.doc, "#cookies")).toContain("This site sets no cookies");
    expect(page.html).not.toContain("gtag");
    // The positive control is the GA deployment below, where both are found.
    expect(page.doc.getElementById("consent-bar")).toBeNull();
    expect(page.doc.querySelector("[data-consent]")).toBeNull();
    expect(squash(page.doc.querySelector("footer")?.textContent)).not.toContain("Cookie settings");
    expect(page.res.headers.get("set-cookie")).toBeNull();
    expect((await fetch(`${server.url}/`)).headers.get("set-cookie")).toBeNull();
  });

  it("what it says of the request log is what the server writes: method, path, status and duration, no address", async () => {
    expect(textOf(page.doc, "#ip-address")).toContain(
      "When the server itself logs a request it answered, the line holds the method, the path (never the query string), the status and how long it took. No IP address",
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
});

describe("/privacy with a function, unusual retention periods, the controller, the processors and analytics configured", () => {
  const app = useAppWithFunction({
    LEADS_RETENTION_DAYS: "37",
    LEADS_UNDELIVERED_RETENTION_DAYS: "143",
    LEADS_SPAM_RETENTION_DAYS: "12",
    PRIVACY_HOSTING_REGION: "Frankfurt, Germany (EU)",
    PRIVACY_FUNCTION_REGION: "Paris, France (EU)",
    PRIVACY_EMAIL_REGION: "Virginia, United States",
    PRIVACY_ANALYTICS_REGION: "United States (Google LLC)",
    PRIVACY_TRANSFER_SAFEGUARDS: "the EU-US Data Privacy Framework (adequacy decision of 10 July 2023)",
    PRIVACY_DPO: "Jane Example, dpo@agency.example.com",
    PRIVACY_LAST_CHANGED: "2099-03-04",
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

  it("says each period it is given: 37 days after delivery, 143 after receipt for requests never delivered, 12 for spam", () => {
    expect(textOf(page.doc, "section[aria-labelledby='summary-heading']")).toContain(
      "erased 37 days after the agency received it",
    );
    const retention = textOf(page.doc, "#retention");
    expect(retention).toContain("are erased 37 days after the agency's function confirmed");
    expect(retention).toContain("Requests that never reached the agency");
    expect(retention).toContain("erased 143 days after they arrived");
    expect(retention).toContain("erased 12 days after they arrived");
    // The defaults are nowhere: each number on the page came from its setting.
    expect(retention).not.toMatch(/\b(90|180|30) days\b/);
  });

  it("names each processor with its place, the safeguards of transfers, the DPO and the later day ops gave", () => {
    const processors = processorsOf(page.doc);
    expect(Object.keys(processors)).toEqual(["hosting", "function", "email", "analytics"]);
    for (const [role, ...said] of [
      ["hosting", "Example Cloud GmbH", "Where: Frankfurt, Germany (EU)"],
      ["function", "Supabase", "send-contact-email", "Where: Paris, France (EU)"],
      ["email", "Example Mail Inc.", "Where: Virginia, United States"],
      ["analytics", "Google", "only if you accept analytics", "Where: United States (Google LLC)"],
    ])
      for (const text of said) expect(processors[role!], role).toContain(text);
    expect(textOf(page.doc, "#transfers")).toContain(
      "What such a transfer rests on: the EU-US Data Privacy Framework (adequacy decision of 10 July 2023)",
    );
    expect(textOf(page.doc, "#dpo")).toContain("Jane Example, dpo@agency.example.com");
    expect(page.doc.querySelector("[data-last-changed] time")?.getAttribute("datetime")).toBe("2099-03-04");
    expect(textOf(page.doc, "[data-last-changed]")).toBe("Last changed: 4 March 2099");
    expectArticle13(page.doc);
    expectRightsAndHowTo(page.doc);
    expectNoFalseStatement(page.main);
  });

  it("states the proxy's access log with the address and user agent (TRUST_PROXY=1)", () => {
    expect(textOf(page.doc, "#ip-address")).toContain(
      "The proxy in front of this site writes an access log line for every request, with your IP address and your browser's user agent",
    );
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

  it("describes Google Analytics on consent: its cookies, the choice kept in the browser, consent as the basis, how to withdraw", () => {
    const cookies = textOf(page.doc, "#cookies");
    expect(cookies).toContain("Google Analytics 4 (measurement ID G-ABC123DEF4) only if you accept it");
    expect(cookies).toContain("nothing from Google loads");
    expect(cookies).toContain("_ga and _ga_ABC123DEF4");
    expect(cookies).toContain("form_submit");
    expect(cookies).toContain("local storage for this site (the entry analytics-consent)");
    expect(textOf(page.doc, "#purposes")).toContain("Your consent: article 6(1)(a) GDPR");
    expect(textOf(page.doc, "#consent")).toContain('"Cookie settings" at the foot of every page');
    expect(page.res.headers.get("content-security-policy")).toContain("https://www.googletagmanager.com");
  });

  it("carries the consent bar, hidden, and Cookie settings, hidden, for the script to show: no Google script in the markup, consent denied by default", () => {
    const bar = page.doc.getElementById("consent-bar");
    expect(bar).not.toBeNull();
    expect(bar!.hasAttribute("hidden")).toBe(true);
    // First in <body>: the first Tab reaches the choice.
    expect(page.doc.body.firstElementChild?.id).toBe("consent-bar");
    const choices = Array.from(bar!.querySelectorAll("button")).map((button) => ({
      text: squash(button.textContent),
      action: button.getAttribute("data-consent"),
      className: button.getAttribute("class"),
    }));
    expect(choices.map(({ text, action }) => [text, action])).toEqual([
      ["Accept", "accept"],
      ["Decline", "decline"],
    ]);
    // Equal weight: the same classes, so the same size, colour and emphasis.
    expect(choices[0]!.className).toBe(choices[1]!.className);
    const settings = page.doc.querySelector("footer [data-consent='open']");
    expect(squash(settings?.textContent)).toBe("Cookie settings");
    expect(settings?.closest("li")?.hasAttribute("hidden")).toBe(true);
    // Nothing in the markup loads from Google: gtag.js is inserted by the script, after Accept.
    expect(page.doc.querySelector("script[src*='google']")).toBeNull();
    expect(page.html).toMatch(/gtag\("consent", "default", \{[^}]*analytics_storage: "denied"/);
  });

  it("states the limits as configured: 3 per hour, the address the proxy reports", () => {
    const ip = textOf(page.doc, "#ip-address");
    expect(ip).toContain("at most 3 submissions per hour from one sender");
    expect(ip).toContain("the address the proxy in front of this site reports");
  });
});

describeWithPostgres("/privacy with DATABASE_URL: the database's provider holds every request", () => {
  let postgres: PostgresServer | undefined;
  let server: AppServer | undefined;
  let page: Page;
  beforeAll(async () => {
    postgres = await startPostgres();
    server = await startAppServer({
      DATABASE_URL: await postgres.createDatabase(),
      GA_MEASUREMENT_ID: "",
      PRIVACY_HOSTING_PROVIDER: "Example Cloud GmbH",
      PRIVACY_HOSTING_REGION: "Frankfurt, Germany (EU)",
      PRIVACY_DATABASE_PROVIDER: "Supabase, Inc.",
      PRIVACY_DATABASE_REGION: "Stockholm, Sweden (EU)",
      PRIVACY_TRANSFER_SAFEGUARDS: "none: every processor keeps the data in the EU",
      PRIVACY_DPO: "none",
    });
    page = await getPage(server);
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    await postgres?.destroy();
  });

  it("names the database's provider and its place beside the host, and no DPO appointed", () => {
    const processors = processorsOf(page.doc);
    expect(Object.keys(processors)).toEqual(["hosting", "database"]);
    expect(processors.database).toContain(
      "Supabase, Inc. hosts the site's PostgreSQL database, which stores your request.",
    );
    expect(processors.database).toContain("Where: Stockholm, Sweden (EU)");
    expect(processors.hosting).toContain("passes it to the database");
    expect(processors.hosting).toContain("Where: Frankfurt, Germany (EU)");
    expect(textOf(page.doc, "#dpo")).toContain("The agency has not appointed a data protection officer.");
  });

  it("names what PostgreSQL keeps until it reclaims it, and keeps the limits' counters in the database under the address", () => {
    const retention = textOf(page.doc, "#retention");
    expect(retention).toContain(
      "PostgreSQL keeps old versions of changed and deleted rows, and its write-ahead log",
    );
    expect(retention).toContain("Backups of the database that the operator makes");
    expect(retention).not.toContain("overwritten in the site's database file");
    expect(textOf(page.doc, "#ip-address")).toContain(
      "The count is kept in the site's database under that address (or its /64)",
    );
    expectArticle13(page.doc);
    expectRightsAndHowTo(page.doc);
    expectNoFalseStatement(page.main);
  });
});
