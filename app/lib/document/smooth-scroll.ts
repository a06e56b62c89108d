/**
 * Smooth scrolling is the visitor's, never the browser's (part of the inline loader).
 *
 * The header's and footer's in-page links glide to their sections (`scroll-behavior: smooth` on
 * `html`), as the spec asks. But a browser applies that style to every scroll it makes on the
 * document's behalf, including the ones nobody asked to watch: a reload's or a return's restored
 * position and a fragment's landing. On a busy phone Chromium restores the position late (during
 * parsing or after the load event), and with smooth scrolling it shows the top of the page, then
 * glides down for a second to where the reader was (found by the reload test of decision 036 on a
 * loaded CI machine).
 *
 * So, with JavaScript, the stylesheet keeps scrolling instant (app/styles/app.css) until this sets
 * `data-smooth-scroll` on `<html>` at the visitor's first intent (a tap, a key, a focus), before the
 * browser acts on it: a link they follow glides, the page's opening never does. Without JavaScript
 * the stylesheet asks for smooth scrolling from the start, as before; the whole page is then laid
 * out as it is parsed, which lets the browser restore the position early.
 */
import { INTENT_EVENTS } from "./paint-first";

/** The attribute on `<html>` that turns smooth scrolling on (app/styles/app.css). */
export const SMOOTH_SCROLL_ATTRIBUTE = "data-smooth-scroll";

/** Turns smooth scrolling on at the visitor's first intent (capture: before the browser acts on it). */
export function smoothScrollOnIntent(): void {
  // Each kind of intent at most once (`once`); setting the attribute again changes nothing.
  const turnOn = () => document.documentElement.setAttribute(SMOOTH_SCROLL_ATTRIBUTE, "");
  for (const type of INTENT_EVENTS)
    window.addEventListener(type, turnOn, { capture: true, passive: true, once: true });
}
