/**
 * The privacy page's copy (/privacy, decision 043). Plain language, layered: a short summary, then
 * the detail. Every value in it (fields, days, processors, cookies, the controller) comes from the
 * page's facts (`privacyFacts` in app/lib/privacy.server.ts), computed from the code and the
 * configuration that decide it; this file only says them in words.
 */
import type { ContactField, PrivacyFacts, Processor } from "~/lib/privacy.server";

import { site } from "./site";

const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export const days = (n: number) => count(n, "day");

/** A span of seconds in its largest whole unit: 600 → "10 minutes", 3600 → "1 hour", 90 → "90 seconds". */
export function duration(seconds: number): string {
  if (seconds % 3600 === 0) return count(seconds / 3600, "hour");
  if (seconds % 60 === 0) return count(seconds / 60, "minute");
  return count(seconds, "second");
}

/** "per 10 minutes", but "per hour" rather than "per 1 hour". */
export const per = (seconds: number) => `per ${duration(seconds).replace(/^1 /, "")}`;

/**
 * Why the page asks for each field. Keyed by the schema's fields: a field added to the form's
 * schema without a purpose here is a type error (and test/lib/privacy.test.ts fails).
 */
export const fieldPurposes: Record<ContactField, string> = {
  name: "To address you in our reply.",
  email: "To reply to you.",
  phone: "To call you back, if you would rather talk.",
  company: "To know whose work you want to automate.",
  website: "To look at your business before we reply.",
  companySize: "To fit our proposal to the size of your business.",
  industry: "To bring examples from your field.",
  message: "Your request itself: what we answer.",
};

/** How each kind of processor is named on the page, and what it does with the data. */
export const processorRoles: Record<
  Processor["role"],
  { label: string; does: (facts: PrivacyFacts) => string }
> = {
  hosting: {
    label: "Hosting",
    does: () => "runs the server this site is on, which stores your request.",
  },
  function: {
    label: "Contact function",
    does: (facts) =>
      `runs the function ${facts.contactFunction ?? ""}, which passes your request on to the agency.`,
  },
  email: {
    label: "E-mail delivery",
    does: () => "delivers that function's e-mail with your request to the agency.",
  },
  analytics: {
    label: "Analytics",
    does: () => "receives page views and the form_submit event (see Cookies and analytics).",
  },
};

export const privacyText = {
  meta: {
    /** The tab and bookmark name: the page, then whose site it is. */
    title: `Privacy Policy | ${site.brandName}`,
    description:
      "What this site does with what you type into its contact form: who receives it, how long it is kept, which cookies are set, and your rights.",
  },
  eyebrow: "Privacy Policy",
  heading: "How we handle your data",
  lead: "What this site does with what you give it, in plain words: the short version first, the details below.",

  /** The list of the detail's parts. */
  onThisPage: "On this page",

  /** Shown wherever configuration leaves a value out: never a placeholder that reads as real. */
  notPublished: "Not published yet",
  notNamed: "Not named yet",

  summary: {
    heading: "In short",
    points: (facts: PrivacyFacts): string[] => [
      "We use what you type into the contact form only to answer your request.",
      facts.delivery === "function"
        ? `Your request is stored on this site and sent on to the agency by e-mail. Its personal details are erased ${days(facts.retention.deliveredDays)} after the agency received it.`
        : "Your request stays in this site's own database, where the agency reads it, until a person there erases it. It is sent nowhere else.",
      "Your IP address is used only to stop floods of messages, and is never stored with your request.",
      facts.analytics
        ? "Google Analytics counts visits to this site and sets cookies in your browser."
        : "No cookies, no analytics, no tracking.",
      "You can see, correct or erase your data at any time, and complain to a data protection authority.",
    ],
  },

  controller: {
    heading: "Who is responsible",
    intro: "The controller decides what happens to your data and answers for it:",
    labels: { name: "Name", address: "Postal address", email: "Privacy contact" },
    missing: "The operator of this site has not published this yet.",
  },

  fields: {
    heading: "What the contact form collects",
    intro: "Only what you type into the form, and only when you send it:",
    required: "required",
    optional: "optional",
    extras:
      "The form also has a field people never see and leave empty (bots fill it in), and, with JavaScript on, it sends how many milliseconds passed between your first keystroke and sending. Both only tell people from bots. Neither is stored: when they mark a message as likely spam, only that reason is kept with it.",
  },

  purposes: {
    heading: "Why, and on what legal basis",
    items: (facts: PrivacyFacts): { purpose: string; basis: string }[] => [
      {
        purpose: "Answering your request, and the steps you ask for before a possible contract.",
        basis: "Article 6(1)(b) GDPR.",
      },
      {
        purpose: "Limiting how often the form can be sent, and holding likely spam aside.",
        basis: "Article 6(1)(f) GDPR: our legitimate interest in keeping the form usable for everyone.",
      },
      ...(facts.analytics
        ? [
            {
              purpose: "Counting visits and form submissions with Google Analytics.",
              basis: "Article 6(1)(f) GDPR: our legitimate interest in knowing how the site is used.",
            },
          ]
        : []),
    ],
    voluntary:
      "Giving us your data is up to you. Without the fields marked required we cannot answer your request.",
  },

  recipients: {
    heading: "Who receives it",
    intro: (facts: PrivacyFacts) =>
      facts.delivery === "function"
        ? "Your request is stored on this site and then passed on to reach the agency. These companies process data on the agency's behalf:"
        : "Your request is not sent anywhere: it stays in this site's own database, where the agency reads it. These companies process data on the agency's behalf:",
    nobodyElse: "No one else receives your data from this site.",
  },

  retention: {
    heading: "How long we keep it",
    rules: (facts: PrivacyFacts): string[] => [
      ...(facts.delivery === "function"
        ? [
            `Requests that reached the agency: their personal details (every field above) are erased ${days(facts.retention.deliveredDays)} after the agency's function confirmed it received them. A record that a request arrived, with no personal data, stays for counting.`,
            "Requests not delivered yet (the function failed or did not confirm): kept until they are delivered or a person at the agency erases them. The timer above does not erase them, because this site may hold their only copy.",
          ]
        : [
            "Every request: kept in this site's database, its only copy, until a person at the agency erases it. Nothing erases it automatically, so that no request is lost. Ask, and we erase yours.",
          ]),
      `Messages that look like spam: held aside and never passed on. A person checks them and may release a real one; the rest are erased after ${days(facts.retention.spamDays)}.`,
      "If the site's database cannot be reached at the moment you send, your request is written to the server's error log instead, so that it is not lost. That log is kept for as long as the host keeps the server's logs.",
      ...(facts.delivery === "function"
        ? ["The e-mail the agency receives is outside these rules; your rights below cover it too."]
        : []),
    ],
  },

  ipAddress: {
    heading: "Your IP address",
    paragraphs: ({ limits }: PrivacyFacts): string[] => [
      `To stop floods of messages, the site counts how often each sender uses the form: at most ${count(limits.perClient, "submission")} ${per(limits.windowSeconds)} from one sender, and ${limits.globalPerMinute} a minute from everyone together.`,
      `A sender is told apart by IP address: ${limits.behindProxy ? "the address the proxy in front of this site reports for your connection" : "the address your connection comes from"}. Of an IPv6 address only the network part (the first half, /64) is used.`,
      limits.counters === "database"
        ? `The count is kept in the site's database until its window of ${duration(limits.windowSeconds)} ends, and deleted within about an hour after that. It is never stored with your request.`
        : `The count is kept only in the server's memory, until its window of ${duration(limits.windowSeconds)} ends (or the server restarts). It is never stored with your request.`,
      "The server writes one line for each page it answers: the method, the path (never the query string), the status and how long it took. No IP address, and nothing about your browser. The line for a form submission says how it went, never what you typed.",
    ],
  },

  cookies: {
    heading: "Cookies and analytics",
    paragraphs: ({ analytics }: PrivacyFacts): string[] =>
      analytics
        ? [
            `This site uses Google Analytics 4 (measurement ID ${analytics.measurementId}). When a page loads, Google's script sets the cookies ${analytics.cookies.join(" and ")} in your browser to tell your visits apart, and sends Google each page view and, when you send the form, the event form_submit (never what you typed). Your browser's requests to Google carry your IP address and details of your browser.`,
            "You can block these cookies in your browser's settings or with a content blocker: the site, the form included, works the same without them.",
          ]
        : [
            "This site sets no cookies and loads no analytics, advertising or tracking scripts. It keeps nothing in your browser except what showing its pages needs.",
          ],
  },

  rights: {
    heading: "Your rights",
    list: [
      { name: "Access", text: "ask what we hold about you, and get a copy (article 15)." },
      { name: "Rectification", text: "have wrong data corrected (article 16)." },
      { name: "Erasure", text: "have your data deleted (article 17)." },
      { name: "Restriction", text: "have its use limited while a question is settled (article 18)." },
      { name: "Objection", text: "object to a use based on our legitimate interest (article 21)." },
      {
        name: "Portability",
        text: "receive what you gave us in a common machine-readable format (article 20).",
      },
    ],
    howTo: "To use any of them, write to",
    howToAfter: "It costs nothing, and we answer within one month.",
    /** No privacy contact configured: say so, and name the address the site does publish. */
    noContact: "The operator has not published a privacy contact yet. Until it does, write to the agency at",
    fallbackEmail: site.email,
    complaint:
      "You also have the right to complain to a data protection supervisory authority, in particular in the EU or EEA country where you live or work, or where you believe your data was mishandled (article 77).",
  },
} as const;
