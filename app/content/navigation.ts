import type { NavLink } from "./types";

export const headerLinks: NavLink[] = [
  { label: "Solutions", href: "#services" },
  { label: "Insiders", href: "#community" },
  { label: "About", href: "#about" },
  { label: "Reviews", href: "#testimonials" },
  { label: "Contact", href: "#contact" },
];

export const headerCta: NavLink = { label: "Get Started", href: "#contact" };

export const navigationText = {
  skipLink: "Skip to main content",
  menuToggle: "Menu",
  menuClose: "Close menu",
  primaryNavLabel: "Primary",
  mobileNavLabel: "Mobile",
  homeLabel: "home",
} as const;
