import type { NavLink } from "./types";

/** The header's section links, in the order they appear. */
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
  /** Accessible name of the mobile menu toggle (also its tooltip). */
  menuToggle: "Menu",
  /** Accessible name of the control that closes the menu before JavaScript has loaded. */
  menuClose: "Close menu",
  primaryNavLabel: "Primary",
  mobileNavLabel: "Mobile",
  homeLabel: "home",
} as const;
