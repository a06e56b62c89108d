/** Shapes of the page's content. Components render these; copy lives only in `app/content/`. */

import type icons from "~/styles/icons.json";

/** The icons drawn for this site: the keys of app/styles/icons.json (drawn by icons.css). */
export type IconName = keyof typeof icons;

/** An in-page anchor (`#id`) or a path on this site. */
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

/** A figure shown large; `prefix value label` reads as one sentence (e.g. "Up to" "80%" "less manual work"). */
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

/** A page that answers an error status (404, 400): its copy, the title included. */
export interface StatusPageText {
  code: string;
  heading: string;
  /** The document title; ends with the brand name. */
  title: string;
  message: string;
  homeLink: string;
}
