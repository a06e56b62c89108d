import { resultsCta, resultsIntro, resultsMetrics } from "~/content/results";

import { Icon } from "./Icon";
import { MetricFigure, type MetricTone } from "./MetricFigure";
import { SectionHeading } from "./SectionHeading";

const tones: MetricTone[] = ["accent", "glass", "glass", "glass"];

/** Outcomes clients can expect (a section the spec leaves open; it carries the headline claims). */
export function ResultsContent() {
  return (
    <>
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <div className="flex flex-col gap-8 lg:flex-row lg:items-end lg:justify-between">
          <SectionHeading intro={resultsIntro} id="results-heading" tone="dark" />
          <a
            href={resultsCta.href}
            className="group inline-flex min-h-12 shrink-0 items-center justify-center gap-2 self-start rounded-full bg-accent-400 px-6 font-semibold text-ink-950 transition-colors hover:bg-accent-300 lg:self-auto"
          >
            {resultsCta.label}
            <Icon name="arrow-right" className="size-5 transition-transform group-hover:translate-x-0.5" />
          </a>
        </div>
        <ul className="mt-14 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {resultsMetrics.map((metric, index) => (
            <li key={metric.label}>
              <MetricFigure metric={metric} tone={tones[index] ?? "glass"} />
            </li>
          ))}
        </ul>
      </div>
    </>
  );
}
