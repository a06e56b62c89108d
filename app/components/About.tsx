import { aboutIntro, aboutMetrics, aboutParagraphs, aboutPrinciples } from "~/content/about";
import { PARAGRAPH_PAIR, withoutLoneLastWord } from "~/lib/typography";

import { Icon } from "./Icon";
import { SectionHeading } from "./SectionHeading";

export function AboutContent() {
  return (
    <div className="shell grid gap-10 lg:grid-cols-[1.05fr_0.95fr] lg:items-center lg:gap-16">
      <div>
        <SectionHeading intro={aboutIntro} id="about-heading" />
        {aboutParagraphs.map((paragraph) => (
          <p key={paragraph} className="mt-4 max-w-2xl leading-relaxed text-ink-600">
            {withoutLoneLastWord(paragraph, PARAGRAPH_PAIR)}
          </p>
        ))}
        <ul className="mt-6 space-y-2.5">
          {aboutPrinciples.map((principle) => (
            <li key={principle} className="flex items-start gap-3 font-medium text-balance text-ink-900">
              <span className="disc mt-0.5 size-6 bg-accent-400 text-ink-950">
                <Icon name="check" className="size-4" />
              </span>
              {withoutLoneLastWord(principle)}
            </li>
          ))}
        </ul>
      </div>
      {/* Narrow padding on phones: "implementations" must fit beside Firefox's scrollbar at 360 px. */}
      <ul className="grid gap-px overflow-hidden rounded-md border border-ink-200 bg-ink-200 min-[360px]:grid-cols-2">
        {aboutMetrics.map((metric) => (
          <li key={metric.label} className="bg-white px-2.5 py-3.5 sm:p-7">
            <p>
              <span className="block text-3xl font-bold tracking-tight tabular-nums sm:text-5xl">
                {metric.value}
              </span>{" "}
              <span className="mt-2 block text-sm font-semibold text-ink-900 sm:text-base">
                {withoutLoneLastWord(metric.label)}
              </span>
            </p>
            <p className="mt-1 text-sm leading-snug text-ink-600">{withoutLoneLastWord(metric.detail)}</p>
          </li>
        ))}
      </ul>
    </div>
  );
}
