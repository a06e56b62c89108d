import { hero } from "~/content/hero";

import { Icon } from "./Icon";

/** The opening section. Its heading is the page's LCP element: it is never hidden or animated in. */
export function HeroContent() {
  return (
    <>
      {/* Decorative backdrop: a soft accent glow and a fine grid, pure CSS. */}
      <div aria-hidden="true" className="pointer-events-none absolute inset-0 -z-10">
        <div className="absolute -top-40 left-1/2 h-[36rem] w-[60rem] -translate-x-1/2 glow-accent-400 opacity-15" />
        <div className="absolute right-[-10rem] bottom-[-12rem] h-[28rem] w-[28rem] glow-indigo-500 opacity-20" />
        <div className="hero-grid absolute inset-0 opacity-40" />
      </div>

      <div className="mx-auto grid max-w-7xl items-center gap-14 px-4 pt-16 pb-20 sm:px-6 sm:pt-24 sm:pb-28 lg:grid-cols-[1.15fr_0.85fr] lg:gap-16 lg:px-8 lg:pt-28 lg:pb-32">
        <div>
          <p className="inline-flex items-center gap-2 rounded-full border border-white/15 bg-white/5 px-4 py-1.5 text-sm font-medium text-ink-200">
            <span aria-hidden="true" className="size-2 rounded-full bg-accent-400" />
            {hero.eyebrow}
          </p>
          <h1
            id="hero-heading"
            className="mt-7 text-[2.5rem] leading-[1.05] font-bold tracking-tight text-balance sm:text-6xl lg:text-7xl"
          >
            {hero.heading} <span className="text-accent-400">{hero.headingAccent}</span>
          </h1>
          <p className="mt-7 max-w-2xl text-lg leading-relaxed text-pretty text-ink-300 sm:text-xl">
            {hero.lead}
          </p>
          {/* The main button reads on one line from 360 px (decision 029): on a phone it spans the
              screen without the decorative arrow; from sm the buttons sit side by side and the second
              one moves to a row of its own rather than squeezing the first. */}
          <div className="mt-10 flex flex-col gap-4 sm:flex-row sm:flex-wrap">
            <a
              href={hero.primaryCta.href}
              className="group inline-flex min-h-14 items-center justify-center gap-2 rounded-full bg-accent-400 px-4 text-center text-base font-semibold text-balance text-ink-950 shadow-[0_0_40px_-8px] shadow-accent-400/60 transition hover:bg-accent-300 sm:px-7"
            >
              {hero.primaryCta.label}
              <Icon
                name="arrow-right"
                className="hidden size-5 shrink-0 transition-transform group-hover:translate-x-0.5 sm:block"
              />
            </a>
            <a
              href={hero.secondaryCta.href}
              className="inline-flex min-h-14 items-center justify-center rounded-full px-7 text-base font-semibold text-white ring-1 ring-white/25 transition hover:bg-white/10 hover:ring-white/40"
            >
              {hero.secondaryCta.label}
            </a>
          </div>
          <ul className="mt-10 flex flex-wrap gap-x-6 gap-y-3 text-sm font-medium text-ink-200">
            {hero.highlights.map((highlight) => (
              <li key={highlight} className="flex items-center gap-2">
                <Icon name="check" className="size-5 text-accent-400" />
                {highlight}
              </li>
            ))}
          </ul>
        </div>

        <HeroPanel />
      </div>
    </>
  );
}

function HeroPanel() {
  const { panel } = hero;
  return (
    <div className="relative mx-auto w-full max-w-md lg:max-w-none">
      <div className="rounded-3xl border border-white/10 bg-white/[0.04] p-6 shadow-2xl shadow-black/40 sm:p-8">
        <div className="flex items-center justify-between gap-4">
          <p className="text-base font-semibold text-white">{panel.title}</p>
          <p className="inline-flex shrink-0 items-center gap-2 rounded-full bg-accent-400/10 px-3 py-1 text-xs font-semibold text-accent-300">
            {/* A still halo, not an endless ping: constant motion distracts (WCAG 2.2.2) and made the
                browser render a frame every few milliseconds while the page was loading. */}
            <span
              aria-hidden="true"
              className="inline-flex size-2 rounded-full bg-accent-400 ring-4 ring-accent-400/25"
            />
            {panel.status}
          </p>
        </div>
        <ol className="mt-7 space-y-3">
          {panel.steps.map((step, index) => (
            <li key={step.title} className="flex gap-4 rounded-2xl border border-white/10 bg-ink-900/80 p-4">
              <span
                aria-hidden="true"
                className="flex size-9 shrink-0 items-center justify-center rounded-xl bg-accent-400 text-sm font-bold text-ink-950"
              >
                {index + 1}
              </span>
              <span>
                <span className="block text-sm font-semibold text-white">{step.title}</span>
                <span className="mt-0.5 block text-sm text-ink-300">{step.detail}</span>
              </span>
            </li>
          ))}
        </ol>
      </div>
    </div>
  );
}
