import { academyCtas, academyFigures, academyIntro } from "~/content/academy";

import { ExternalLink } from "./ExternalLink";
import { Icon } from "./Icon";

/** The community academy and a final call to action (a section the spec leaves open). */
export function AcademyContent() {
  return (
    <>
      <div className="relative isolate mx-auto max-w-7xl overflow-hidden rounded-[2.5rem] bg-accent-400 px-6 py-16 sm:px-12 sm:py-20 lg:px-16">
        <div aria-hidden="true" className="absolute -top-24 -right-24 -z-10 size-96 glow-accent-300" />
        <div className="grid gap-12 lg:grid-cols-[1.3fr_1fr] lg:items-center">
          <div>
            <p className="text-sm font-semibold tracking-[0.14em] text-ink-800 uppercase">
              {academyIntro.eyebrow}
            </p>
            <h2
              id="academy-heading"
              className="mt-3 text-3xl font-bold tracking-tight text-balance text-ink-950 sm:text-4xl lg:text-5xl"
            >
              {academyIntro.heading}
            </h2>
            <p className="mt-5 max-w-2xl text-lg leading-relaxed text-ink-800">{academyIntro.lead}</p>
            <div className="mt-9 flex flex-col gap-4 sm:flex-row">
              <a
                href={academyCtas.primary.href}
                className="group inline-flex min-h-12 items-center justify-center gap-2 rounded-full bg-ink-950 px-6 font-semibold text-white transition-colors hover:bg-ink-800"
              >
                <Icon name="book" className="size-5 text-accent-400" />
                {academyCtas.primary.label}
              </a>
              <ExternalLink
                href={academyCtas.secondary.href}
                className="inline-flex min-h-12 items-center justify-center rounded-full px-6 font-semibold text-ink-950 ring-2 ring-ink-950/80 transition-colors hover:bg-ink-950 hover:text-white"
              >
                {academyCtas.secondary.label}
              </ExternalLink>
            </div>
          </div>
          {/* Side by side only where a tile is wide enough for "2,000+" (md, beside nothing); in the
              narrow column next to the text from lg, and on phones, the tiles stack. */}
          <ul className="grid gap-4 md:grid-cols-2 lg:grid-cols-1">
            {academyFigures.map((figure) => (
              <li key={figure.label} className="rounded-3xl bg-ink-950 p-6 md:p-8">
                <p>
                  <span className="block text-4xl font-bold tracking-tight text-accent-400 md:text-5xl">
                    {figure.value}
                  </span>{" "}
                  <span className="mt-2 block font-semibold text-white">{figure.label}</span>
                </p>
              </li>
            ))}
          </ul>
        </div>
      </div>
    </>
  );
}
