import { type MetricBar, resultsCta, resultsIntro, resultsMetrics, resultsScales } from "~/content/results";
import { withoutLoneLastWord } from "~/lib/typography";

import { Icon } from "./Icon";
import { SectionHeading } from "./SectionHeading";

function span(bar: MetricBar): { x: number; width: number } {
  if (bar.kind === "share") return { x: 0, width: bar.percent };
  const month = 100 / 12;
  return { x: bar.from * month, width: (bar.to - bar.from) * month };
}

function Bar({ bar }: { bar: MetricBar }) {
  const { x, width } = span(bar);
  return (
    <svg aria-hidden="true" className="block h-2.5 w-full overflow-visible">
      <rect width="100%" height="100%" rx="5" className="fill-white/10" />
      {bar.kind === "year"
        ? [25, 50, 75].map((tick) => (
            <line key={tick} x1={`${tick}%`} x2={`${tick}%`} y1="-3" y2="13" className="stroke-white/25" />
          ))
        : null}
      <rect x={`${x}%`} width={`${Math.max(width, 2)}%`} height="100%" rx="5" className="fill-accent-400" />
    </svg>
  );
}

export function ResultsContent() {
  return (
    <div className="shell">
      <div className="flex flex-col gap-6 lg:flex-row lg:items-end lg:justify-between">
        <SectionHeading intro={resultsIntro} id="results-heading" />
        <a href={resultsCta.href} className="group btn btn-accent shrink-0 self-start lg:self-auto">
          {withoutLoneLastWord(resultsCta.label)}
          <Icon name="arrow-right" className="size-5 transition-transform group-hover:translate-x-0.5" />
        </a>
      </div>
      <ul className="mt-10 grid grid-cols-1 gap-x-5 gap-y-8 min-[360px]:grid-cols-2 sm:gap-x-10 lg:mt-14 lg:grid-cols-4">
        {resultsMetrics.map((metric) => (
          <li key={metric.label} className="border-t border-white/15 pt-5">
            <p>
              <span className="block font-mono text-xs font-semibold tracking-[0.16em] text-ink-300 uppercase">
                {metric.prefix}
              </span>{" "}
              <span className="mt-1 block text-4xl font-bold tracking-tight text-accent-400 tabular-nums sm:text-5xl">
                {metric.value}
              </span>{" "}
              <span className="mt-1 block font-semibold text-white sm:text-lg">
                {withoutLoneLastWord(metric.label)}
              </span>
            </p>
            <div className="mt-4">
              <Bar bar={metric.bar} />
              <p
                aria-hidden="true"
                className="mt-2 flex justify-between font-mono text-[0.7rem] text-ink-400"
              >
                <span>{resultsScales[metric.bar.kind].start}</span>
                <span>{resultsScales[metric.bar.kind].end}</span>
              </p>
            </div>
            <p className="mt-3 text-sm leading-relaxed text-ink-300">{withoutLoneLastWord(metric.detail)}</p>
          </li>
        ))}
      </ul>
    </div>
  );
}
