/** Shapes of the page's content. Components render these; copy lives only in `app/content/`. */

import type icons from "~/styles/icons.json";

export type IconName = keyof typeof icons;

export interface NavLink {
  label: string;
  href: `#${string}` | `/${string}`;
}

/** A link that leaves the site: always opened in a new tab. */
export interface ExternalLink {
  label: string;
  href: string;
}

export interface Service {
  title: string;
  description: string;
  features: string[];
  icon: IconName;
}

export interface MembershipTier {
  name: string;
  price: string;
  period: string;
  description: string;
  features: string[];
  popular: boolean;
  cta: ExternalLink;
}

export interface CommunityStat {
  number: string;
  label: string;
}

export type CommunityTile =
  | { kind: "external"; title: string; description: string; icon: IconName; href: string; cta: string }
  | { kind: "anchor"; title: string; description: string; icon: IconName; href: `#${string}`; cta: string };

export interface Testimonial {
  name: string;
  role: string;
  content: string;
  rating: number;
}

/** `prefix value label` reads as one sentence ("Up to" "80%" "less manual work"). */
export interface Metric {
  prefix?: string;
  value: string;
  label: string;
  detail: string;
}

export interface ProcessStep {
  duration: string;
  title: string;
  description: string;
  icon: IconName;
}

export interface Faq {
  question: string;
  answer: string;
}

export interface SectionIntro {
  eyebrow: string;
  heading: string;
  lead: string;
}

export interface StatusPageText {
  code: string;
  heading: string;
  title: string;
  message: string;
  homeLink: string;
}
