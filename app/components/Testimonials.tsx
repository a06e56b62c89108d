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

/** Skeletons show this long after the section first enters the viewport (spec). */
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
 * Server HTML carries the real cards. With JavaScript, cards not yet seen wait under skeletons, still
 * (a pulse off screen only keeps the page painting), and show after pulsing 1 s in view (decision
 * 029). What is on screen is the observer's first report, not a layout read during hydration
 * (decision 036). Skeletons lie over the cards, which keep their size and text for screen readers.
 */
export function Testimonials() {
  const section = useRef<HTMLElement>(null);
  const [covered, setCovered] = useState<boolean[]>(() => testimonials.map(() => false));
  const [pulsing, setPulsing] = useState(false);

  useEffect(() => {
    const node = section.current;
    if (!node || typeof IntersectionObserver === "undefined") return;
    const cards = Array.from(node.querySelectorAll("[data-testimonial]"));
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
            // Before the next frame, so no card flashes before its skeleton.
            flushSync(() => setCovered(waiting));
          }
        }
      }
      if (onScreen.size < cards.length || !sectionInView) return;
      observer.disconnect();
      setPulsing(true);
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
              {covered[0] ? <Skeleton featured pulsing={pulsing} /> : null}
            </li>
          </ul>
        ) : null}
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
             * Over the card's column, not inside the card: WebKit misplaces a subgrid holding a
             * positioned box. Client-only, so the column can be a style (the CSP forbids one in HTML).
             */}
            {others.map((testimonial, index) =>
              covered[index + 1] ? (
                <li
                  key={`${testimonial.name} skeleton`}
                  aria-hidden="true"
                  className="absolute inset-0 row-span-3 row-start-1"
                  style={{ gridColumn: `${index + 1} / span 1` }}
                >
                  <Skeleton pulsing={pulsing} />
                </li>
              ) : null,
            )}
          </ul>
        </div>
      </div>
    </section>
  );
}

/** A star from its top point in relative moves, so one path draws a row. */
const STAR = "l2.6 5.3 5.9.9-4.3 4.1 1 5.8-5.2-2.8-5.2 2.8 1-5.8-4.3-4.1 5.9-.9z";
const stars = (from: number, to: number) =>
  Array.from({ length: to - from }, (_, index) => `M${12 + (from + index) * 24} 3.5${STAR}`).join("");

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

function Skeleton({ featured = false, pulsing }: { featured?: boolean; pulsing: boolean }) {
  const bar = `${pulsing ? "animate-skeleton " : ""}rounded-full ${featured ? "bg-white/10" : "bg-ink-100"}`;
  const box = featured ? "rounded-lg bg-ink-950 p-6 sm:p-10 lg:p-12" : "card p-5";
  return (
    <div data-skeleton aria-hidden="true" className={`absolute inset-0 flex flex-col ${box}`}>
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
