import type { ContactRequest } from "~/lib/contact/schema";

/**
 * Whether a valid submission looks like spam (decision 042): weights reaching `SPAM_THRESHOLD`
 * hold it aside. Only the honeypot and link spam suffice alone; every other signal is something a
 * real person sometimes does (a fast paste, a tag quoted from their site), so it takes two.
 */

export const SPAM_THRESHOLD = 3;

/** Each signal's weight: one table for the rules, the log, the CLI and decision 042. */
export const SPAM_SIGNALS = {
  /** The field people never see was filled (a bot, or a password manager: held, not lost). */
  honeypot: 3,
  /** More than two links in the message. */
  links: 3,
  /** HTML or BBCode in the message: a link to be rendered somewhere else. */
  markup: 2,
  /** A link through a URL shortener, in the message or the website field. */
  shortener: 2,
  /** A name that is a web address. */
  "name-is-url": 2,
  /** Three or more fields with the same text. */
  "identical-fields": 2,
  /** With JavaScript only: sent within FAST_SUBMIT_MS of the first keystroke. */
  "fast-submit": 2,
} as const satisfies Record<string, number>;

export type SpamSignal = keyof typeof SPAM_SIGNALS;

/** Nobody types a request within 3 s of the first keystroke. */
export const FAST_SUBMIT_MS = 3_000;

export const MAX_LINKS = 2;

/** What the form sends beside the fields: the honeypot's value, and (with JavaScript) the typing time. */
export interface SubmissionClues {
  honeypot?: string;
  /** From the first keystroke to the submit; undefined without JavaScript. */
  typingMs?: number;
}

export interface SpamVerdict {
  spam: boolean;
  score: number;
  signals: SpamSignal[];
}

const LINK = /\bhttps?:\/\/|\bwww\.[^\s.]/giu;
const MARKUP =
  /<\s*\/?\s*(a|b|i|u|p|div|span|img|iframe|script|strong|em|font|br|h[1-6])\b[^>]*>|\[\/?(url|link|img|b|i|u|color|size|quote)\b[^\]]*\]/iu;
/** Shorteners people do not type by hand (their links hide where they lead), one space apart. */
const SHORTENERS =
  "bit.ly tinyurl.com t.co goo.gl ow.ly is.gd buff.ly rebrand.ly cutt.ly shorturl.at tiny.cc rb.gy t.ly s.id bl.ink shorte.st adf.ly v.gd";
const SHORTENER = new RegExp(
  `(?:^|[^\\p{L}\\p{N}.-])(?:https?://)?(?:www\\.)?(?:${SHORTENERS.replace(/\./g, "\\.").replaceAll(" ", "|")})/\\S`,
  "iu",
);
/** A listed top-level domain, so "Jane.Doe" or "Dr.Smith" is never read as a host by its shape. */
const TOP_LEVEL_DOMAINS =
  "com|net|org|io|co|ru|info|biz|xyz|top|site|online|shop|store|club|live|app|dev|ai|us|uk|de|fr|cn|in|br|pl|nl|tk|ml|ga|cf|gq|pw|cc|ws|me|tv";
const URL_LIKE = new RegExp(
  `^(?:https?://|www\\.)|^[\\p{L}\\p{N}-]+(?:\\.[\\p{L}\\p{N}-]+)*\\.(?:${TOP_LEVEL_DOMAINS})(?:[/:?#]\\S*)?$`,
  "iu",
);

export function countLinks(text: string): number {
  return text.match(LINK)?.length ?? 0;
}

/** The largest number of fields holding the same non-empty text (case and spaces aside). */
export function mostIdenticalFields(request: ContactRequest): number {
  const counts = new Map<string, number>();
  for (const value of Object.values(request)) {
    const key = value.trim().toLowerCase();
    if (key) counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return Math.max(0, ...counts.values());
}

/** The signals a valid submission shows, in the table's order. */
export function spamSignals(request: ContactRequest, clues: SubmissionClues = {}): SpamSignal[] {
  const found: Record<SpamSignal, boolean> = {
    honeypot: (clues.honeypot ?? "").trim() !== "",
    links: countLinks(request.message) > MAX_LINKS,
    markup: MARKUP.test(request.message),
    shortener: SHORTENER.test(request.message) || SHORTENER.test(request.website),
    "name-is-url": URL_LIKE.test(request.name.trim()),
    "identical-fields": mostIdenticalFields(request) >= 3,
    "fast-submit": clues.typingMs !== undefined && clues.typingMs < FAST_SUBMIT_MS,
  };
  return (Object.keys(SPAM_SIGNALS) as SpamSignal[]).filter((signal) => found[signal]);
}

export function spamVerdict(request: ContactRequest, clues: SubmissionClues = {}): SpamVerdict {
  const signals = spamSignals(request, clues);
  const score = signals.reduce((sum, signal) => sum + SPAM_SIGNALS[signal], 0);
  return { spam: score >= SPAM_THRESHOLD, score, signals };
}

/** The typing time the form sent, if valid; anything else is no timing, never against anyone. */
export function typingMsFrom(value: unknown): number | undefined {
  if (typeof value !== "string" || !/^\d{1,9}$/.test(value)) return undefined;
  const ms = Number(value);
  return ms <= 86_400_000 ? ms : undefined;
}
