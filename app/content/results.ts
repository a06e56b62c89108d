import type { Metric, SectionIntro } from "./types";

/** The first section the spec does not show: the outcomes clients can expect. Id `results`. */
export const resultsIntro: SectionIntro = {
  eyebrow: "Results",
  heading: "The numbers that make automation worth it",
  lead: "We scope every project around outcomes you can measure on your own books, not vanity metrics.",
};

export const resultsMetrics: Metric[] = [
  {
    prefix: "Up to",
    value: "80%",
    label: "less manual work",
    detail: "Repetitive data entry, follow-ups and reporting handled by AI.",
  },
  {
    prefix: "Up to",
    value: "60%",
    label: "cost reduction",
    detail: "Lower operating costs on the processes we automate.",
  },
  {
    prefix: "ROI in",
    value: "3-6",
    label: "months",
    detail: "Most projects pay for themselves within two quarters.",
  },
  {
    prefix: "Start in",
    value: "2",
    label: "weeks",
    detail: "From first call to your first automation in production.",
  },
];

export const resultsCta = { label: "Get your free AI assessment", href: "#contact" } as const;
