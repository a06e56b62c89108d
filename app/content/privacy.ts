/**
 * The privacy page's copy (/privacy, decisions 043 and 047). Every value comes from `privacyFacts`
 * (app/lib/privacy.server.ts); this file only says them in words. Changing what it says: change
 * `copyLastChanged` (./privacy-changed.ts) in the same commit.
 */
import type { SpamSignal } from "~/lib/contact/spam";
import type { PrivacyFacts, Processor } from "~/lib/privacy.server";

import { consentText } from "./consent";

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

const LONG_DATE = new Intl.DateTimeFormat("en-GB", { dateStyle: "long", timeZone: "UTC" });

/** "2026-12-02" → "2 December 2026": one way of writing a day for readers in every country. */
export const longDate = (day: string) => LONG_DATE.format(new Date(day));

/** Keyed by the signals (app/lib/contact/spam.ts): one added without a sentence is a type error. */
export const spamSignalWords: Record<SpamSignal, string> = {
  honeypot: "the hidden field filled in",
  links: "more than two links in the message",
  markup: "HTML or forum markup in the message",
  shortener: "a link through a URL shortener",
  "name-is-url": "a name that is a web address",
  "identical-fields": "three or more fields with the same text",
  "fast-submit": "a message sent within seconds of the first keystroke",
};

export const processorRoles: Record<
  Processor["role"],
  { label: string; does: (facts: PrivacyFacts) => string }
> = {
  hosting: {
    label: "Hosting",
    does: (facts) =>
      facts.store === "sqlite"
        ? "runs the server this site is on, whose disk holds the site's database with your request."
        : "runs the server this site is on, which receives your request and passes it to the database.",
  },
  database: {
    label: "Database",
    does: () => "hosts the site's PostgreSQL database, which stores your request.",
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
    does: () =>
      "receives page views and the form_submit event, only if you accept analytics (see Cookies and analytics).",
  },
};

export const privacyText = {
  meta: {
    title: `Privacy Policy | ${site.brandName}`,
    description:
      "What this site does with what you type into its contact form: who receives it, where, how long it is kept, which cookies are set with your consent, and your rights.",
  },
  eyebrow: "Privacy Policy",
  heading: "How we handle your data",
  lead: "What this site does with what you give it, in plain words: the short version first, the details below.",
  lastChanged: "Last changed",

  onThisPage: "On this page",

  /** Shown wherever configuration leaves a value out: never a placeholder that reads as real. */
  notPublished: "Not published yet",
  notNamed: "Not named yet",

  summary: {
    heading: "In short",
    points: (facts: PrivacyFacts): string[] => [
      "We use what you type into the contact form only to answer your request.",
      facts.delivery === "function"
        ? `Your request is stored in this site's database and sent on to the agency by its contact function. Its personal details are erased ${days(facts.retention.deliveredDays)} after the agency received it.`
        : `Your request is stored in this site's database, where the agency reads it. Its personal details are erased ${days(facts.retention.deliveredDays)} after it arrived.`,
      "Your IP address counts towards the form's limits and is never stored with your request; the access logs of the servers in front of this site may record it.",
      facts.analytics
        ? "Google Analytics runs only if you accept it in the bar at the bottom of the page. Until then nothing from Google loads and nothing is stored in your browser for it."
        : "No cookies, no analytics, no tracking.",
      "You can get a copy of your data, have it corrected or erased, and complain to a data protection authority.",
    ],
  },

  controller: {
    heading: "Who is responsible",
    intro: "The controller decides what happens to your data and answers for it:",
    labels: { name: "Name", address: "Postal address", email: "Privacy contact" },
    missing: "The operator of this site has not published this yet.",
  },

  dpo: {
    heading: "Data protection officer",
    named: "Our data protection officer:",
    none: "The agency has not appointed a data protection officer. Write to the privacy contact above about anything on this page.",
    missing: "The operator has not published yet whether it has a data protection officer.",
  },

  purposes: {
    heading: "What we collect, why, and on what legal basis",
    items: (facts: PrivacyFacts): { purpose: string; basis: string }[] => [
      {
        purpose: "Answering your request, and the steps you ask for before a possible contract.",
        basis: "Article 6(1)(b) GDPR.",
      },
      {
        purpose: "Limiting how often the form can be sent, and holding likely spam aside.",
        basis: "Article 6(1)(f) GDPR: our legitimate interests (below).",
      },
      {
        purpose:
          "Keeping the site running and secure: the logs of the server and of what runs in front of it.",
        basis: "Article 6(1)(f) GDPR: our legitimate interests (below).",
      },
      ...(facts.analytics
        ? [
            {
              purpose: "Counting visits and form submissions with Google Analytics.",
              basis:
                "Your consent: article 6(1)(a) GDPR, and the consent the ePrivacy rules require before anything is stored in your browser. Only if you accept, and until you withdraw it.",
            },
          ]
        : []),
    ],
  },

  fields: {
    heading: "What the contact form collects",
    intro: "Only what you type into the form, and only when you send it:",
    required: "required",
    optional: "optional",
    extras:
      "The form also has a field people never see and leave empty (bots fill it in), and, with JavaScript on, it sends how many milliseconds passed between your first keystroke and sending. Both only tell people from bots. Neither is stored: when they mark a message as likely spam, only that reason is kept with it.",
  },

  ipAddress: {
    heading: "Your IP address",
    paragraphs: ({ limits }: PrivacyFacts): string[] => [
      `To stop floods of messages, the site counts how often each sender uses the form: at most ${count(limits.perClient, "submission")} ${per(limits.windowSeconds)} from one sender, and ${limits.globalPerMinute} a minute from everyone together.`,
      `A sender is told apart by IP address: ${limits.behindProxy ? "the address the proxy in front of this site reports for your connection" : "the address your connection comes from"}. Of an IPv6 address only the network part (the first half, /64) is used.`,
      limits.counters === "database"
        ? `The count is kept in the site's database under that address (or its /64) until its window of ${duration(limits.windowSeconds)} ends, and deleted within about an hour after that. It is never stored with your request.`
        : `The count is kept in the server's memory under that address (or its /64) until its window of ${duration(limits.windowSeconds)} ends (or the server restarts). It is never stored with your request.`,
      "When the server itself logs a request it answered, the line holds the method, the path (never the query string), the status and how long it took. No IP address, and nothing about your browser. The line for a form submission says how it went, never what you typed.",
      limits.behindProxy
        ? "The proxy in front of this site writes an access log line for every request, with your IP address and your browser's user agent; it is kept for as long as whoever runs that proxy (the operator or the host) keeps its logs."
        : "The host's network in front of this server may log each request with your IP address and your browser's user agent, as hosts do; such logs are kept for as long as the host keeps them.",
    ],
  },

  cookies: {
    heading: "Cookies and analytics",
    paragraphs: ({ analytics }: PrivacyFacts): string[] =>
      analytics
        ? [
            `This site uses Google Analytics 4 (measurement ID ${analytics.measurementId}) only if you accept it in the bar at the bottom of the page. Until you do, nothing from Google loads and nothing is stored in your browser for it; without JavaScript it never loads.`,
            `Once you accept, Google's script sets the cookies ${analytics.cookies.join(" and ")} in your browser to tell your visits apart, and sends Google each page view and, when you send the form, the event form_submit (never what you typed). Your browser's requests to Google carry your IP address and details of your browser.`,
            `Your choice itself is kept in your browser's local storage for this site (the entry ${analytics.choiceKey}), so that the bar does not ask again. It is never sent to the server. The site, the form included, works the same whichever you choose.`,
          ]
        : [
            "This site sets no cookies and loads no analytics, advertising or tracking scripts. It keeps nothing in your browser except what showing its pages needs.",
          ],
  },

  interests: {
    heading: "Our legitimate interests",
    items: [
      "Keeping the contact form usable for everyone: limits on how often one sender can send, and likely spam held aside instead of reaching the agency.",
      "Keeping the site running and secure: logs to find faults and abuse.",
    ],
    object: "You may object to either at any time (article 21, see Your rights).",
  },

  recipients: {
    heading: "Who receives it",
    intro: (facts: PrivacyFacts) =>
      facts.delivery === "function"
        ? "Your request is stored in this site's database and then passed on to reach the agency. These companies process data on the agency's behalf:"
        : "Your request is stored in this site's database, where the agency reads it. These companies process data on the agency's behalf:",
    where: "Where:",
    nobodyElse: "Beyond the agency and these processors, no one receives your data from this site.",
  },

  transfers: {
    heading: "Transfers outside the EU and EEA",
    intro:
      "Each processor above keeps your data where it is listed. A place outside the European Union and the European Economic Area means your data is transferred there.",
    safeguards: "What such a transfer rests on:",
    copy: "Ask the privacy contact for a copy of these safeguards.",
  },

  retention: {
    heading: "How long we keep it",
    rules: (facts: PrivacyFacts): string[] => [
      ...(facts.delivery === "function"
        ? [
            `Requests that reached the agency: their personal details (every field above) are erased ${days(facts.retention.deliveredDays)} after the agency's function confirmed it received them. A record that a request arrived, with no personal data, stays for counting.`,
            `Requests that never reached the agency (the function failed, did not answer, or may have received them without confirming): kept for a person at the agency to deliver, and erased ${days(facts.retention.undeliveredDays)} after they arrived.`,
          ]
        : [
            `Every request: kept in this site's database, where the agency reads it; its personal details (every field above) are erased ${days(facts.retention.deliveredDays)} after it arrived. A record that a request arrived, with no personal data, stays for counting.`,
          ]),
      `Messages the site takes for spam: held aside, never passed on, and erased ${days(facts.retention.spamDays)} after they arrived, unless a person at the agency releases one as a real request (then the rules above apply to it).`,
      "If the site's database cannot be reached at the moment you send, your request is written to the server's error log instead, so that it is not lost. That log is kept for as long as the host keeps the server's logs.",
      ...(facts.delivery === "function"
        ? ["The e-mail the agency receives is outside these rules; your rights below cover it too."]
        : []),
    ],
    copiesHeading: "Copies the site cannot erase by itself",
    copies: (facts: PrivacyFacts): string[] => [
      "Backups of the database that the operator makes keep an erased request until those backups are deleted, as the operator's backup schedule decides.",
      facts.store === "postgres"
        ? "PostgreSQL keeps old versions of changed and deleted rows, and its write-ahead log, until it reclaims them (its routine clean-up); the database provider's own backups and point-in-time recovery keep them for as long as the provider keeps those."
        : "Erased content is overwritten in the site's database file; a copy of that file made before (a backup, a disk snapshot) keeps it.",
      "The access logs of the servers in front of this site (above) are kept for as long as whoever runs them keeps them.",
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
    what: [
      "Write from the e-mail address you gave in the form, or say which one it was: we answer to that address, so that nobody else receives your data.",
      "A copy: the agency exports every request the site holds that was sent with your address (its command npm run leads -- export --email) and sends you the file, in JSON, a common machine-readable format.",
      "A correction: tell us what is wrong, and a person at the agency corrects it. An erasure: every request sent with your address is erased from the site's database (its command npm run leads -- forget).",
    ],
  },

  consent: {
    heading: "Withdrawing your consent",
    paragraphs: (facts: PrivacyFacts): string[] =>
      facts.analytics
        ? [
            `Analytics is the one use that rests on your consent. You can withdraw it at any time, as easily as you gave it: "${consentText.settings}" at the foot of every page opens the choice again; choose ${consentText.decline}. From then on nothing is sent to Google, Google's cookies on this site are removed, and its script no longer loads.`,
            "Withdrawing does not make unlawful what was done with your consent before.",
          ]
        : ["Nothing this site does rests on your consent, so there is nothing to withdraw."],
  },

  complaint: {
    heading: "Complaining to a supervisory authority",
    text: "You have the right to complain to a data protection supervisory authority, in particular in the EU or EEA country where you live or work, or where you believe your data was mishandled (article 77).",
  },

  voluntary: {
    heading: "Whether you have to give us your data",
    text: "No law and no contract requires you to give us your data, and you are not obliged to. Without the fields marked required we cannot answer your request.",
  },

  automated: {
    heading: "Automated decisions: the spam check",
    paragraphs: ({ spamSignals }: PrivacyFacts): string[] => [
      `A program scores every message for signs of spam: ${spamSignals.map((signal) => spamSignalWords[signal]).join(", ")}. A message that scores high enough is held aside instead of reaching the agency, and you get the same answer as for any other message.`,
      "This is the only automated decision the site makes, and no profile of you is built. A person can review it: nobody is told when a message is held, so if you did not hear from us, write to the privacy contact and a person at the agency will look at the held messages and release yours.",
    ],
  },
} as const;
