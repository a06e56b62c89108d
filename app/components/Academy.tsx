import { academyCtas, academyFigures, academyIntro } from "~/content/academy";
import { HEADING_PAIR, PARAGRAPH_PAIR, withoutLoneLastWord } from "~/lib/typography";

import { ExternalLink } from "./ExternalLink";
import { Icon } from "./Icon";

export function AcademyContent() {
  return (
    <div className="shell">
      <div className="relative isolate overflow-hidden rounded-lg bg-accent-400 px-5 py-10 text-ink-950 sm:px-12 sm:py-14 lg:px-16">
        <div aria-hidden="true" className="absolute -top-24 -right-24 -z-10 size-96 glow-accent-300" />
        <div className="grid gap-8 lg:grid-cols-[1.5fr_1fr] lg:items-center lg:gap-14">
          <div>
            <p className="eyebrow text-ink-800">{academyIntro.eyebrow}</p>
            <h2 id="academy-heading" className="heading mt-3">
              {withoutLoneLastWord(academyIntro.heading, HEADING_PAIR)}
            </h2>
            <p className="mt-4 max-w-2xl text-lg leading-relaxed text-ink-800">
              {withoutLoneLastWord(academyIntro.lead, PARAGRAPH_PAIR)}
            </p>
            <div className="mt-7 flex flex-col gap-3 sm:flex-row">
              <a href={academyCtas.primary.href} className="btn btn-ink">
                <Icon name="book" className="size-5 text-accent-400" />
                {withoutLoneLastWord(academyCtas.primary.label)}
              </a>
              <ExternalLink href={academyCtas.secondary.href} className="btn btn-line border-ink-950">
                {withoutLoneLastWord(academyCtas.secondary.label)}
              </ExternalLink>
            </div>
          </div>
          <ul className="figure-pair">
            {academyFigures.map((figure) => (
              <li key={figure.label}>
                <p>
                  <span className="block text-3xl font-bold tracking-tight tabular-nums sm:text-5xl">
                    {figure.value}
                  </span>{" "}
                  <span className="mt-1 block font-semibold text-ink-800">{figure.label}</span>
                </p>
              </li>
            ))}
          </ul>
        </div>
      </div>
    </div>
  );
}
