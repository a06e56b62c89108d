import { hero } from "~/content/hero";
import { HEADING_PAIR, PARAGRAPH_PAIR, TITLE_PAIR, withoutLoneLastWord } from "~/lib/typography";

import { Icon } from "./Icon";

/** Its heading is the page's LCP element: never hidden or animated in. */
export function HeroContent() {
  return (
    <div className="shell grid items-center gap-12 pt-10 pb-14 sm:pt-16 sm:pb-20 lg:grid-cols-[1.25fr_0.75fr] lg:gap-14 lg:pt-14 lg:pb-20">
      <div>
        <p className="inline-flex items-center gap-2 rounded-full border border-white/15 bg-white/5 px-4 py-1.5 text-sm font-medium text-ink-200">
          <span aria-hidden="true" className="size-2 rounded-full bg-accent-400" />
          {withoutLoneLastWord(hero.eyebrow)}
        </p>
        {/* At most four lines beside the pipeline at 1280 px, so the main button is above the fold. */}
        <h1
          id="hero-heading"
          className="mt-6 text-[2.5rem] leading-[1.04] font-bold tracking-tight sm:text-6xl lg:text-[3.75rem]"
        >
          {hero.heading}{" "}
          <span className="text-accent-400">{withoutLoneLastWord(hero.headingAccent, HEADING_PAIR)}</span>
        </h1>
        <p className="mt-6 max-w-2xl text-lg leading-relaxed text-ink-300 sm:text-xl">
          {withoutLoneLastWord(hero.lead, PARAGRAPH_PAIR)}
        </p>
        {/* The main button reads on one line from 360 px (decision 029): no arrow on a phone. */}
        <div className="mt-8 flex flex-col gap-3 sm:flex-row sm:flex-wrap">
          <a href={hero.primaryCta.href} className="group btn btn-xl btn-accent px-4 text-balance sm:px-7">
            {hero.primaryCta.label}
            <Icon
              name="arrow-right"
              className="hidden size-5 shrink-0 transition-transform group-hover:translate-x-0.5 sm:block"
            />
          </a>
          <a href={hero.secondaryCta.href} className="btn btn-xl btn-line">
            {hero.secondaryCta.label}
          </a>
        </div>
        <ul className="mt-8 grid gap-2 text-sm font-medium text-ink-200 sm:flex sm:flex-wrap sm:gap-x-6">
          {hero.highlights.map((highlight) => (
            <li key={highlight} className="flex items-center gap-2">
              <Icon name="check" className="size-5 text-accent-400" />
              {highlight}
            </li>
          ))}
        </ul>
      </div>

      <HeroPipeline />
    </div>
  );
}

function HeroPipeline() {
  const { panel } = hero;
  return (
    <div className="relative mx-auto w-full max-w-md rounded-lg border border-white/10 bg-ink-900/70 p-5 shadow-lift sm:p-7 lg:max-w-none">
      <div className="flex items-center justify-between gap-4">
        <p className="font-semibold text-white">{withoutLoneLastWord(panel.title, TITLE_PAIR)}</p>
        <p className="inline-flex shrink-0 items-center gap-2 rounded-full bg-accent-400/10 px-3 py-1 text-xs font-semibold text-accent-300">
          {/* A still halo, not an endless ping: constant motion distracts (WCAG 2.2.2). */}
          <span
            aria-hidden="true"
            className="size-2 rounded-full bg-accent-400 outline-4 outline-accent-400/25"
          />
          {panel.status}
        </p>
      </div>
      <ol className="pipeline mt-6">
        {panel.steps.map((step, index) => {
          const done = step.state === "done";
          return (
            <li key={step.title} className="relative flex gap-4" data-line-to={panel.steps[index + 1]?.state}>
              <span
                aria-hidden="true"
                className={`disc size-10 ${
                  done
                    ? "bg-accent-400 text-ink-950"
                    : "border-2 border-accent-400 bg-ink-950 text-accent-400 outline-4 outline-accent-400/20"
                }`}
              >
                <Icon name={step.icon} className="size-5" />
              </span>
              <span className="min-w-0 flex-1">
                <span className="flex items-baseline justify-between gap-3">
                  <span className="text-sm font-semibold text-white">{step.title}</span>
                  <span
                    className={`shrink-0 font-mono text-[0.7rem] font-semibold tracking-wider uppercase ${
                      done ? "text-ink-400" : "text-accent-400"
                    }`}
                  >
                    {panel.stateLabels[step.state]}
                  </span>
                </span>
                <span className="mt-0.5 block text-sm text-ink-300">{step.detail}</span>
              </span>
            </li>
          );
        })}
      </ol>
    </div>
  );
}
