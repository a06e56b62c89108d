import type { ProcessStep, SectionIntro } from "./types";

export const processIntro: SectionIntro = {
  eyebrow: "How we work",
  heading: "From first message to full automation in 30 days",
  lead: "A clear, low-risk path: you see a working proof of concept before you commit to a full rollout.",
};

export const processSteps: ProcessStep[] = [
  {
    title: "Initial response",
    duration: "24-48h",
    description: "A senior consultant reviews your request and books your free consultation.",
    icon: "mail",
  },
  {
    title: "Proof of concept",
    duration: "1-2 weeks",
    description: "We automate one high-impact process so you can see the results on real data.",
    icon: "bolt",
  },
  {
    title: "Full implementation",
    duration: "30 days",
    description:
      "We roll out, integrate with your systems, train your team and hand over clear documentation.",
    icon: "rocket",
  },
];

export const processFootnote = "Ready when you are: most clients start in 2 weeks.";
