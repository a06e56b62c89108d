/**
 * Typographic care that CSS alone does not give: with `text-wrap: pretty` (app/styles/app.css)
 * Chromium still leaves a lone last word in narrow columns, and other browsers ignore it.
 */

const NO_BREAK_SPACE = "\u00a0";

/**
 * The text with its last two words joined by a no-break space, so its last line never holds one
 * word alone. Left as it is: fewer than three words, or a last pair longer than `maxPairLength`
 * (glued, it could be wider than the narrowest column that shows it).
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

/** Running text with a column of its own: glued, 24 characters take under half the narrowest. */
export const PARAGRAPH_PAIR = 24;
