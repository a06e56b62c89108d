import { useEffect, useRef, useState } from "react";
import { flushSync } from "react-dom";

import {
  ratingLabel,
  ratingMax,
  testimonials,
  testimonialsIntro,
  testimonialsRowLabel,
} from "~/content/testimonials";
import type { Testimonial } from "~/content/types";
import { initials } from "~/lib/initials";
import { PARAGRAPH_PAIR, withoutLoneLastWord } from "~/lib/typography";

import { SectionHeading } from "./SectionHeading";

/** How long the skeletons show after the section first enters the viewport (spec: 1000 ms). */
export const SKELETON_MS = 1000;

/** Avatar colours, in turn: six initials in one colour read as a placeholder. */
const AVATAR_TONES = [
  "bg-accent-400 text-ink-950",
  "bg-ink-950 text-accent-400",
  "bg-ink-200 text-ink-900",
  "bg-accent-200 text-ink-900",
  "bg-ink-700 text-white",
  "bg-ink-100 text-ink-800",
];

/**
 * One featured quote, then the other five: in one row of five on wide screens, and on narrower
 * ones a row that scrolls sideways (swipe, or Tab to it and use the arrow keys), its cards aligned
 * row by row with subgrid so stars, quotes and authors line up.
 *
 * Server HTML carries the real testimonials (crawlers, no-JS visitors: the cards at once). With
 * JavaScript, the cards the visitor has not seen yet wait under skeletons from hydration on, and
 * show 1 s after the section first enters the viewport (decision 029):
 * - which cards are on screen is the intersection observer's first report, made with the frame
 *   after hydration, not read from the layout while React hydrates: a forced layout there made
 *   hydration's task 16-30 ms longer on a slow phone (decision 036);
 * - a card off screen in that frame is covered before the next one (`flushSync` in the report's
 *   task), so no card can flash before its skeleton when the section scrolls into view;
 * - a card on screen in that frame was seen: it is never covered;
 * - the skeleton is laid over the card, which keeps its size and its text for assistive technology,
 *   so nothing shifts and nothing is hidden from a screen reader.
 */
export function Testimonials() {
  const section = useRef<HTMLElement>(null);
  // Per card: covered by its skeleton. The server and the first render cover nothing.
  const [covered, setCovered] = useState<boolean[]>(() => testimonials.map(() => false));

  useEffect(() => {
    const node = section.current;
    if (!node || typeof IntersectionObserver === "undefined") return;
    const cards = Array.from(node.querySelectorAll("[data-testimonial]"));
    // Each card's first report: whether it is on screen in the frame after hydration.
    const onScreen = new Map<Element, boolean>();
    // The section's latest report: it may come before every card has reported.
    let sectionInView = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const observer = new IntersectionObserver((entries) => {
      for (const entry of entries) {
        if (entry.target === node) sectionInView = entry.isIntersecting;
        else if (!onScreen.has(entry.target)) {
          onScreen.set(entry.target, entry.isIntersecting);
          observer.unobserve(entry.target);
          if (onScreen.size === cards.length) {
            const waiting = cards.map((card) => !onScreen.get(card));
            if (!waiting.some(Boolean)) return observer.disconnect();
            // Before the next frame: a card off screen now must not show without its skeleton.
            flushSync(() => setCovered(waiting));
          }
        }
      }
      if (onScreen.size < cards.length || !sectionInView) return;
      observer.disconnect();
      timer = setTimeout(() => setCovered(testimonials.map(() => false)), SKELETON_MS);
    });
    for (const card of cards) observer.observe(card);
    observer.observe(node);
    return () => {
      observer.disconnect();
      if (timer) clearTimeout(timer);
    };
  }, []);

  const [featured, ...others] = testimonials;
  return (
    <section
      ref={section}
      id="testimonials"
      aria-labelledby="testimonials-heading"
      className="band bg-paper"
      // The loader may render this part (an inline style) before React hydrates it: decision 036.
      suppressHydrationWarning
    >
      <div className="shell">
        <SectionHeading intro={testimonialsIntro} id="testimonials-heading" align="split" />
        {featured ? (
          <ul className="mt-10 lg:mt-14">
            <li className="relative">
              <FeaturedCard testimonial={featured} />
              {covered[0] ? <Skeleton featured /> : null}
            </li>
          </ul>
        ) : null}
        {/* Scrolls sideways below xl: focusable, so a keyboard reaches every card with the arrow keys. */}
        <div
          role="region"
          aria-label={testimonialsRowLabel}
          // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrolling region must take focus to be scrolled by keyboard (WCAG 2.1.1)
          tabIndex={0}
          className="swipe-row mt-4"
        >
          <ul className="swipe-track relative">
            {others.map((testimonial, index) => (
              <li key={testimonial.name} className="row-span-3 grid snap-start grid-rows-subgrid">
                <Card testimonial={testimonial} tone={AVATAR_TONES[(index + 1) % AVATAR_TONES.length]!} />
              </li>
            ))}
            {/*
             * Each skeleton is laid over its card's column of the track, not put inside the card:
             * WebKit lays a subgrid out wrongly (star rows two or three times their height, cards
             * out of line) once a positioned box is added to it, and the cards are subgrids (issue
             * 25). Client-only, so the column can be a style (the CSP allows no style attribute in
             * the server's HTML).
             */}
            {others.map((testimonial, index) =>
              covered[index + 1] ? (
                <li
                  key={`${testimonial.name} skeleton`}
                  aria-hidden="true"
                  className="absolute inset-0 row-span-3 row-start-1"
                  style={{ gridColumn: `${index + 1} / span 1` }}
                >
                  <Skeleton />
                </li>
              ) : null,
            )}
          </ul>
        </div>
      </div>
    </section>
  );
}

/** A star's outline from its top point (relative moves), so that one path can draw a row of them. */
const STAR = "l2.6 5.3 5.9.9-4.3 4.1 1 5.8-5.2-2.8-5.2 2.8 1-5.8-4.3-4.1 5.9-.9z";
const stars = (from: number, to: number) =>
  Array.from({ length: to - from }, (_, index) => `M${12 + (from + index) * 24} 3.5${STAR}`).join("");

/** The rating as one row of stars (one SVG, not one per star), with its text for screen readers. */
function Stars({ rating, className }: { rating: number; className: string }) {
  const label = ratingLabel.replace("{rating}", String(rating)).replace("{max}", String(ratingMax));
  return (
    <p className={className}>
      <svg viewBox={`0 0 ${ratingMax * 24} 24`} aria-hidden="true" className="h-4 fill-current">
        <path d={stars(0, rating)} />
        {rating < ratingMax ? <path d={stars(rating, ratingMax)} className="opacity-30" /> : null}
      </svg>
      <span className="sr-only">{label}</span>
    </p>
  );
}

function Author({ testimonial, tone }: { testimonial: Testimonial; tone: string }) {
  return (
    <footer className="flex items-center gap-3">
      <span aria-hidden="true" className={`disc size-11 text-sm font-bold tracking-wide ${tone}`}>
        {initials(testimonial.name)}
      </span>
      <span className="min-w-0">
        <span className="block font-semibold">{testimonial.name}</span>
        <span className="block text-sm text-ink-600 in-[.on-ink]:text-ink-300">{testimonial.role}</span>
      </span>
    </footer>
  );
}

function FeaturedCard({ testimonial }: { testimonial: Testimonial }) {
  return (
    <article
      data-testimonial
      className="on-ink grid gap-6 rounded-lg bg-ink-950 p-6 text-white sm:p-10 lg:grid-cols-[1fr_auto] lg:items-end lg:gap-12 lg:p-12"
    >
      <div>
        <Stars rating={testimonial.rating} className="text-accent-400" />
        <blockquote className="mt-4 text-xl leading-snug font-medium tracking-tight sm:text-2xl lg:text-3xl">
          <p>{`\u201c${withoutLoneLastWord(testimonial.content, PARAGRAPH_PAIR)}\u201d`}</p>
        </blockquote>
      </div>
      <Author testimonial={testimonial} tone={AVATAR_TONES[0]!} />
    </article>
  );
}

function Card({ testimonial, tone }: { testimonial: Testimonial; tone: string }) {
  return (
    <article data-testimonial className="card row-span-3 grid grid-rows-subgrid gap-4 p-5">
      <Stars rating={testimonial.rating} className="text-accent-700" />
      <blockquote className="text-[0.95rem] leading-relaxed text-ink-800">
        <p>{`\u201c${withoutLoneLastWord(testimonial.content, PARAGRAPH_PAIR)}\u201d`}</p>
      </blockquote>
      <Author testimonial={testimonial} tone={tone} />
    </article>
  );
}

/** Placeholder shapes laid over a card of the same size, opaque so the card cannot show through; decorative only. */
function Skeleton({ featured = false }: { featured?: boolean }) {
  const bar = `animate-skeleton rounded-full ${featured ? "bg-white/10" : "bg-ink-100"}`;
  return (
    <div
      data-skeleton
      aria-hidden="true"
      className={`absolute inset-0 flex flex-col ${
        featured ? "rounded-lg bg-ink-950 p-6 sm:p-10 lg:p-12" : "card p-5"
      }`}
    >
      <div className={`h-4 w-24 ${bar}`} />
      <div className="mt-5 flex-1 space-y-3">
        <div className={`h-4 w-full ${bar}`} />
        <div className={`h-4 w-11/12 ${bar}`} />
        <div className={`h-4 w-4/5 ${bar}`} />
      </div>
      <div className="mt-5 flex items-center gap-3">
        <div className={`size-11 shrink-0 ${bar}`} />
        <div className="flex-1 space-y-2">
          <div className={`h-4 w-1/2 ${bar}`} />
          <div className={`h-3 w-3/4 ${bar}`} />
        </div>
      </div>
    </div>
  );
}
