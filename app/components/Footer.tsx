import { contactDetails } from "~/content/contact";
import {
  copyright,
  footerContactHeading,
  footerLinks,
  footerNavHeading,
  footerSocialHeading,
  footerSocialLinks,
  footerTagline,
  legalLinks,
} from "~/content/footer";
import { newTabHint } from "~/content/external-link";
import { site } from "~/content/site";

import { BrandMark } from "./BrandMark";
import { Icon } from "./Icon";
import { Tooltip, TooltipGroup } from "./Tooltip";

const linkClass = "text-ink-300 transition-colors hover:text-white";

export function Footer() {
  return (
    <footer className="on-ink bg-ink-950 text-white">
      <div className="mx-auto grid max-w-7xl gap-12 px-4 py-16 sm:px-6 md:grid-cols-2 lg:grid-cols-[1.6fr_1fr_1fr_1fr] lg:px-8">
        <div>
          <p className="flex items-center gap-3">
            <BrandMark />
            <span className="text-lg font-bold tracking-tight">{site.brandName}</span>
          </p>
          <p className="mt-5 max-w-sm leading-relaxed text-ink-300">{footerTagline}</p>
        </div>
        <nav aria-labelledby="footer-nav-heading">
          <h2
            id="footer-nav-heading"
            className="text-sm font-semibold tracking-[0.14em] text-accent-400 uppercase"
          >
            {footerNavHeading}
          </h2>
          <ul className="mt-5 space-y-3">
            {footerLinks.map((link) => (
              <li key={link.href}>
                <a href={link.href} className={linkClass}>
                  {link.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div>
          <h2 className="text-sm font-semibold tracking-[0.14em] text-accent-400 uppercase">
            {footerContactHeading}
          </h2>
          <ul className="mt-5 space-y-3">
            <li>
              <a href={`mailto:${contactDetails.email}`} className={linkClass}>
                {contactDetails.email}
              </a>
            </li>
            <li className="text-ink-300">{contactDetails.location}</li>
          </ul>
        </div>
        <div>
          <h2 className="text-sm font-semibold tracking-[0.14em] text-accent-400 uppercase">
            {footerSocialHeading}
          </h2>
          <TooltipGroup as="ul" className="mt-5 flex gap-3" preloadMargin="1200px">
            {footerSocialLinks.map((link) => (
              <li key={link.label}>
                <Tooltip label={link.label}>
                  <a
                    href={link.href}
                    target="_blank"
                    rel="noopener noreferrer"
                    aria-label={`${link.label} ${newTabHint}`}
                    data-tooltip-trigger
                    className="flex size-11 items-center justify-center rounded-full text-white ring-1 ring-white/20 transition-colors hover:bg-accent-400 hover:text-ink-950 hover:ring-accent-400"
                  >
                    <Icon name={link.icon} className="size-5" />
                  </a>
                </Tooltip>
              </li>
            ))}
          </TooltipGroup>
        </div>
      </div>
      <div className="border-t border-white/10">
        <div className="mx-auto flex max-w-7xl flex-col gap-4 px-4 py-8 text-sm text-ink-300 sm:px-6 md:flex-row md:items-center md:justify-between lg:px-8">
          <p>{copyright}</p>
          <ul className="flex flex-wrap gap-x-6 gap-y-2">
            {legalLinks.map((link) => (
              <li key={link.label}>
                <a href={link.href} className={linkClass}>
                  {link.label}
                </a>
              </li>
            ))}
          </ul>
        </div>
      </div>
    </footer>
  );
}
