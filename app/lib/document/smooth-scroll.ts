/**
 * Smooth scrolling is the visitor's, never the browser's (part of the inline loader). A browser
 * applies `scroll-behavior: smooth` to its own scrolls too: on a busy phone Chromium restores a
 * reload's position late, showing the top, then gliding down. So, with JavaScript, scrolling stays
 * instant (app/styles/app.css) until the visitor's first intent; without, it is smooth from the
 * start (the page is laid out as parsed, so the position is restored early).
 */
import { INTENT_EVENTS } from "./paint-first";

/** The attribute on `<html>` that turns smooth scrolling on (app/styles/app.css). */
export const SMOOTH_SCROLL_ATTRIBUTE = "data-smooth-scroll";

/** Capture: turned on before the browser acts on the intent, so a followed link glides. */
export function smoothScrollOnIntent(): void {
  // Each kind of intent at most once (`once`); setting the attribute again changes nothing.
  const turnOn = () => document.documentElement.setAttribute(SMOOTH_SCROLL_ATTRIBUTE, "");
  for (const type of INTENT_EVENTS)
    window.addEventListener(type, turnOn, { capture: true, passive: true, once: true });
}
