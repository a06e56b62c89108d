import { site } from "./site";
import type { ExternalLink, NavLink } from "./types";

export const footerTagline =
  "AI automation for growing businesses, and a community for people building their own AI automation agency.";

export const footerNavHeading = "Explore";

export const footerLinks: NavLink[] = [
  { label: "Services", href: "#services" },
  { label: "About", href: "#about" },
  { label: "Community", href: "#community" },
  { label: "Testimonials", href: "#testimonials" },
  { label: "Contact", href: "#contact" },
];

export const footerSocialHeading = "Follow";

export const footerSocialLinks: (ExternalLink & { icon: "camera" | "video" })[] = [
  { label: "Instagram", href: site.links.imageSharingProfile, icon: "camera" },
  { label: "TikTok", href: site.links.shortVideoProfile, icon: "video" },
];

export const footerContactHeading = "Contact";

/** Only the privacy page is real (docs/requirements.md, section 6); the others await their texts. */
export const legalLinks: NavLink[] = [
  { label: "Privacy Policy", href: "/privacy" },
  { label: "Terms of Service", href: "#" },
  { label: "AI Ethics", href: "#" },
];

export const copyright = `© ${new Date().getFullYear()} ${site.brandName}. All rights reserved.`;
