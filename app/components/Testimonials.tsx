import { useRef, useState } from "react";

import { ratingLabel, ratingMax, testimonials, testimonialsIntro } from "~/content/testimonials";
import type { Testimonial } from "~/content/types";
import { useBrowserLayoutEffect } from "~/lib/browser-layout-effect";
import { initials } from "~/lib/initials";

import { Icon } from "./Icon";
import { SectionHeading } from "./SectionHeading";

/** How long the skeletons show after the section first enters the viewport (spec: 1000 ms). */
export const SKELETON_MS = 1000;

function onScreen(element: Element): boolean {
  const box = element.getBoundingClientRect();
  return box.bottom > 0 && box.top < window.innerHeight && box.right > 0 && box.left < window.innerWidth;
}

/**
 * Server HTML carries the real testimonials (crawlers, no-JS visitors: the cards at once). With
 * JavaScript, the cards the visitor has not seen yet wait under skeletons from hydration on, and
 * show 1 s after the section first enters the viewport (decision 029):
 * - covered before the browser paints again (a layout effect), so no card can flash before its
 *   skeleton when the section scrolls into view;
 * - a card already on screen when JavaScript takes over was seen: it is never covered;
 * - the skeleton is laid over the card, which keeps its size and its text for assistive technology,
 *   so nothing shifts and nothing is hidden from a screen reader.
 */
export function Testimonials() {
  const section = useRef<HTMLElement>(null);
  // Per card: covered by its skeleton. The server and the first render cover nothing.
  const [covered, setCovered] = useState<boolean[]>(() => testimonials.map(() => false));

  useBrowserLayoutEffect(() => {
    const node = section.current;
    if (!node || typeof IntersectionObserver === "undefined") return;
    const cards = Array.from(node.querySelectorAll("[data-testimonial]"));
    const waiting = cards.map((card) => !onScreen(card));
    if (!waiting.some(Boolean)) return;
    setCovered(waiting);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const observer = new IntersectionObserver((entries) => {
      if (!entries.some((entry) => entry.isIntersecting)) return;
      observer.disconnect();
      timer = setTimeout(() => setCovered(testimonials.map(() => false)), SKELETON_MS);
    });
    observer.observe(node);
    return () => {
      observer.disconnect();
      if (timer) clearTimeout(timer);
    };
  }, []);

  return (
    <section
      ref={section}
      id="testimonials"
      aria-labelledby="testimonials-heading"
      className="bg-paper py-24 sm:py-32"
    >
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <SectionHeading intro={testimonialsIntro} id="testimonials-heading" align="center" />
        <ul className="mt-16 grid gap-6 md:grid-cols-2 lg:grid-cols-3">
          {testimonials.map((testimonial, index) => (
            <li key={testimonial.name} className="relative">
              <TestimonialCard testimonial={testimonial} />
              {covered[index] ? <TestimonialSkeleton /> : null}
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

function Stars({ rating }: { rating: number }) {
  const label = ratingLabel.replace("{rating}", String(rating)).replace("{max}", String(ratingMax));
  return (
    <p className="flex gap-1 text-amber-500">
      {Array.from({ length: ratingMax }, (_, index) => (
        <Icon key={index} name="star" filled className={`size-5 ${index < rating ? "" : "text-ink-200"}`} />
      ))}
      <span className="sr-only">{label}</span>
    </p>
  );
}

function TestimonialCard({ testimonial }: { testimonial: Testimonial }) {
  return (
    <article
      data-testimonial
      className="flex h-full flex-col rounded-3xl border border-ink-200/80 bg-white p-8 shadow-sm transition-shadow duration-300 hover:shadow-xl hover:shadow-ink-900/10"
    >
      <Stars rating={testimonial.rating} />
      <blockquote className="mt-5 flex-1 text-base leading-relaxed text-ink-800">
        <p>&ldquo;{testimonial.content}&rdquo;</p>
      </blockquote>
      <footer className="mt-8 flex items-center gap-4 border-t border-ink-100 pt-6">
        <span
          aria-hidden="true"
          className="flex size-12 shrink-0 items-center justify-center rounded-full bg-ink-950 text-sm font-bold tracking-wide text-accent-400"
        >
          {initials(testimonial.name)}
        </span>
        <span>
          <span className="block font-semibold text-ink-950">{testimonial.name}</span>
          <span className="block text-sm text-ink-600">{testimonial.role}</span>
        </span>
      </footer>
    </article>
  );
}

/** Placeholder shapes laid over a card of the same size, opaque so the card cannot show through; decorative only. */
function TestimonialSkeleton() {
  return (
    <div
      data-skeleton
      aria-hidden="true"
      className="absolute inset-0 flex flex-col rounded-3xl border border-ink-200/80 bg-white p-8"
    >
      <div className="flex gap-1">
        {Array.from({ length: ratingMax }, (_, index) => (
          <div key={index} className="size-5 animate-skeleton rounded bg-ink-100" />
        ))}
      </div>
      <div className="mt-6 flex-1 space-y-3">
        <div className="h-4 w-full animate-skeleton rounded bg-ink-100" />
        <div className="h-4 w-11/12 animate-skeleton rounded bg-ink-100" />
        <div className="h-4 w-4/5 animate-skeleton rounded bg-ink-100" />
        <div className="h-4 w-2/3 animate-skeleton rounded bg-ink-100" />
      </div>
      <div className="mt-8 flex items-center gap-4 border-t border-ink-100 pt-6">
        <div className="size-12 shrink-0 animate-skeleton rounded-full bg-ink-100" />
        <div className="flex-1 space-y-2">
          <div className="h-4 w-1/2 animate-skeleton rounded bg-ink-100" />
          <div className="h-3 w-3/4 animate-skeleton rounded bg-ink-100" />
        </div>
      </div>
    </div>
  );
}
