import type { Metric } from "~/content/types";

const tones = {
  light: {
    box: "bg-paper border border-ink-200/70",
    value: "text-ink-950",
    label: "text-ink-900",
    detail: "text-ink-600",
  },
  dark: { box: "bg-ink-950", value: "text-accent-400", label: "text-white", detail: "text-ink-300" },
  accent: { box: "bg-accent-400", value: "text-ink-950", label: "text-ink-950", detail: "text-ink-800" },
  glass: {
    box: "bg-white/[0.05] border border-white/10",
    value: "text-accent-400",
    label: "text-white",
    detail: "text-ink-300",
  },
} as const;

export type MetricTone = keyof typeof tones;

interface MetricFigureProps {
  metric: Metric;
  tone?: MetricTone;
}

/**
 * One large figure. Prefix, value and label are one sentence in the markup ("Up to 80% less
 * manual work"), so the claim reads intact to screen readers and crawlers.
 */
export function MetricFigure({ metric, tone = "light" }: MetricFigureProps) {
  const style = tones[tone];
  return (
    <div className={`flex h-full flex-col rounded-3xl p-7 ${style.box}`}>
      <p>
        {metric.prefix ? (
          <>
            <span className={`block text-sm font-semibold tracking-wide uppercase ${style.detail}`}>
              {metric.prefix}
            </span>{" "}
          </>
        ) : null}
        <span className={`block text-5xl font-bold tracking-tight tabular-nums ${style.value}`}>
          {metric.value}
        </span>{" "}
        <span className={`mt-3 block text-base font-semibold ${style.label}`}>{metric.label}</span>
      </p>
      <p className={`mt-2 text-sm leading-relaxed ${style.detail}`}>{metric.detail}</p>
    </div>
  );
}
