import type { Metric, SectionIntro } from "./types";

export const resultsIntro: SectionIntro = {
  eyebrow: "Results",
  heading: "The numbers that make automation worth it",
  lead: "We scope every project around outcomes you can measure on your own books, not vanity metrics.",
};

/** `share` in percent; `year` from–to in months. Decorative: the figure's words carry the claim. */
export type MetricBar = { kind: "share"; percent: 80 | 60 } | { kind: "year"; from: number; to: number };

export const resultsMetrics: (Metric & { bar: MetricBar })[] = [
  {
    prefix: "Up to",
    value: "80%",
    label: "less manual work",
    detail: "Repetitive data entry, follow-ups and reporting handled by AI.",
    bar: { kind: "share", percent: 80 },
  },
  {
    prefix: "Up to",
    value: "60%",
    label: "cost reduction",
    detail: "Lower operating costs on the processes we automate.",
    bar: { kind: "share", percent: 60 },
  },
  {
    prefix: "ROI in",
    value: "3-6",
    label: "months",
    detail: "Most projects pay for themselves within two quarters.",
    bar: { kind: "year", from: 3, to: 6 },
  },
  {
    prefix: "Start in",
    value: "2",
    label: "weeks",
    detail: "From first call to your first automation in production.",
    bar: { kind: "year", from: 0, to: 0.5 },
  },
];

export const resultsScales = {
  share: { start: "0%", end: "100%" },
  year: { start: "Month 0", end: "Month 12" },
} as const;

export const resultsCta = { label: "Get your free AI assessment", href: "#contact" } as const;
