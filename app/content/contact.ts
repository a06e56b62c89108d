import { site } from "./site";
import type { SectionIntro } from "./types";

export const contactIntro: SectionIntro = {
  eyebrow: "Contact",
  heading: "Get your free AI assessment",
  lead: "Tell us about your business and the work you would like to hand off. We will map the opportunities and show you what to automate first.",
};

export const contactDetails = {
  emailLabel: "Email us",
  email: site.email,
  locationLabel: "Visit us",
  location: site.location.label,
  responseCard: {
    title: "Response within 24-48 hours",
    text: "Every request is answered by a senior consultant within 24-48 hours, with a free consultation included.",
  },
} as const;
