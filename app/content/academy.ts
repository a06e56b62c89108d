import { site } from "./site";
import type { SectionIntro } from "./types";

export const academyIntro: SectionIntro = {
  eyebrow: "Insiders academy",
  heading: "Rather build automations on your own?",
  lead: "The Insiders academy teaches you to design, sell and deliver AI automations, with templates from real client projects.",
};

export const academyFigures = [
  { value: "50+", label: "hours of courses" },
  { value: "2,000+", label: "members" },
] as const;

export const academyCtas = {
  primary: { label: "Explore membership", href: "#community" },
  secondary: { label: "Join the free community", href: site.links.communityChat },
} as const;
