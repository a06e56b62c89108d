/**
 * Typographic care that CSS alone does not give. `text-wrap: pretty` and `balance` are set on the
 * page's text (app/styles/app.css), but Chromium still leaves a lone last word in narrow columns
 * ("Intelligent Process / Automation", a card's "… we / automate."), and other browsers ignore them.
 */

const NO_BREAK_SPACE = "\u00a0";

/**
 * The text with its last two words joined by a no-break space, so that it never ends on one word
 * alone on its last line. A reader, a screen reader and a search engine read the same
 * words; only the line break between those two is gone.
 *
 * Left as it is: a text of fewer than three words (splitting two words is the only way to wrap
 * them), and one whose last two words together are longer than `maxPairLength` characters: glued,
 * they could be wider than the narrowest column that shows them (the layout test found pairs of 15
 * characters wider than a feature column at 1024 px). Headings pass a smaller limit.
 */
export function withoutLoneLastWord(text: string, maxPairLength = 14): string {
  const trimmed = text.trimEnd();
  const last = trimmed.lastIndexOf(" ");
  if (last <= 0) return text;
  const beforeLast = trimmed.lastIndexOf(" ", last - 1);
  if (beforeLast <= 0) return text;
  if (trimmed.length - beforeLast - 1 > maxPairLength) return text;
  return `${trimmed.slice(0, last)}${NO_BREAK_SPACE}${trimmed.slice(last + 1)}${text.slice(trimmed.length)}`;
}

/** The limit for section headings: their large type makes a long pair too wide for a phone. */
export const HEADING_PAIR = 13;

/** The limit for a card's title (bold, a size above running text, the card's whole width). */
export const TITLE_PAIR = 18;

/**
 * The limit for running text with a column of its own (a section's lead, a card's text): glued,
 * even 24 characters take less than half the narrowest such column. Firefox, which has no
 * `text-wrap: pretty`, left these on a lone word.
 */
export const PARAGRAPH_PAIR = 24;
