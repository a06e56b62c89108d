import { aboutIntro, aboutMetrics, aboutParagraphs, aboutPrinciples } from "~/content/about";

import { Icon } from "./Icon";
import { MetricFigure } from "./MetricFigure";
import { SectionHeading } from "./SectionHeading";

/** The inside of the section (its <section> frame is `sectionFrames.about`): static HTML, never hydrated. */
export function AboutContent() {
  return (
    <>
      <div className="mx-auto grid max-w-7xl gap-16 px-4 sm:px-6 lg:grid-cols-2 lg:items-center lg:px-8">
        <div>
          <SectionHeading intro={aboutIntro} id="about-heading" />
          {aboutParagraphs.map((paragraph) => (
            <p key={paragraph} className="mt-5 max-w-2xl leading-relaxed text-ink-600">
              {paragraph}
            </p>
          ))}
          <ul className="mt-8 space-y-3">
            {aboutPrinciples.map((principle) => (
              <li key={principle} className="flex items-start gap-3 font-medium text-ink-900">
                <span className="mt-0.5 flex size-6 shrink-0 items-center justify-center rounded-full bg-accent-400 text-ink-950">
                  <Icon name="check" className="size-4" />
                </span>
                {principle}
              </li>
            ))}
          </ul>
        </div>
        {/* Two tiles a row only from sm: at phone widths a 5xl figure or "implementations" is wider than half the screen. */}
        <ul className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          {aboutMetrics.map((metric, index) => (
            <li key={metric.label}>
              <MetricFigure metric={metric} tone={index === 0 ? "accent" : index === 3 ? "dark" : "light"} />
            </li>
          ))}
        </ul>
      </div>
    </>
  );
}
