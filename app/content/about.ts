import type { Metric, SectionIntro } from "./types";

export const aboutIntro: SectionIntro = {
  eyebrow: "About",
  heading: "Practical AI, built by operators for operators",
  lead: "We are a Cincinnati-based team of automation engineers and former business owners. We skip the hype and start with the processes that cost you the most time, then automate them with tools you can trust.",
};

export const aboutParagraphs: string[] = [
  "Every engagement starts with a free assessment of where your hours go. We map the work, estimate the return and only build what pays for itself.",
  "After launch we stay on: monitoring, improving and training your team, so the automations keep working as your business grows.",
];

export const aboutMetrics: Metric[] = [
  { value: "80+", label: "automations deployed", detail: "Live in businesses like yours" },
  { value: "500+", label: "implementations", detail: "Across our team and community" },
  { value: "90%", label: "faster customer response", detail: "With AI handling first replies" },
  { value: "24/7", label: "always-on operations", detail: "No nights, weekends or holidays off" },
];
export const aboutPrinciples: string[] = [
  "Outcome first: every project has a number it must move",
  "Your data stays yours, handled under strict access controls",
  "Plain-English reporting, no black boxes",
];
