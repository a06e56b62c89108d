import { useRouteLoaderData } from "@remix-run/react";

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
import { consentText } from "~/content/consent";
import { newTabHint } from "~/content/external-link";
import { site } from "~/content/site";
import { CONSENT_DOM } from "~/lib/analytics-consent";
import { PARAGRAPH_PAIR, withoutLoneLastWord } from "~/lib/typography";
import type { loader as rootLoader } from "~/root";

import { BrandMark } from "./BrandMark";
import { Icon } from "./Icon";
import type { SectionsOn } from "./MobileMenu";
import { Tooltip, TooltipGroup } from "./Tooltip";

const linkClass = "text-ink-300 transition-colors hover:text-white";

/** `sectionsOn` as for the header; `current`: the showing page's path, for `aria-current`. */
export function Footer({ sectionsOn = "", current }: { sectionsOn?: SectionsOn; current?: string }) {
  const analytics = Boolean(useRouteLoaderData<typeof rootLoader>("root")?.gaMeasurementId);
  return (
    <footer
      className="on-ink bg-ink-950 text-white"
      // The loader may render this part (an inline style) before React hydrates it: decision 036.
      suppressHydrationWarning
    >
      <div className="shell grid grid-cols-[auto_1fr] gap-x-6 gap-y-10 py-12 lg:grid-cols-[1.6fr_1fr_1fr_1fr] lg:py-16">
        <div className="col-span-2 lg:col-span-1">
          <p className="flex items-center gap-3">
            <BrandMark />
            <span className="text-lg font-bold tracking-tight">{site.brandName}</span>
          </p>
          <p className="mt-4 max-w-sm leading-relaxed text-ink-300">{footerTagline}</p>
        </div>
        <nav aria-labelledby="footer-nav-heading" className="row-span-2 lg:row-span-1">
          <h2 id="footer-nav-heading" className="eyebrow">
            {footerNavHeading}
          </h2>
          <ul className="mt-4 space-y-3">
            {footerLinks.map((link) => (
              <li key={link.href}>
                <a
                  href={link.href.startsWith("#") ? `${sectionsOn}${link.href}` : link.href}
                  className={linkClass}
                >
                  {link.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div>
          <h2 className="eyebrow">{footerContactHeading}</h2>
          <ul className="mt-4 space-y-3">
            <li>
              <a href={`mailto:${contactDetails.email}`} className={`${linkClass} [overflow-wrap:anywhere]`}>
                {contactDetails.email}
              </a>
            </li>
            <li className="text-ink-300">{contactDetails.location}</li>
          </ul>
        </div>
        <div>
          <h2 className="eyebrow">{footerSocialHeading}</h2>
          <TooltipGroup as="ul" className="mt-4 flex gap-3" preloadMargin="1200px">
            {footerSocialLinks.map((link) => (
              <li key={link.label}>
                <Tooltip label={link.label}>
                  <a
                    href={link.href}
                    target="_blank"
                    rel="noopener noreferrer"
                    aria-label={`${link.label} ${newTabHint}`}
                    data-tooltip-trigger
                    className="disc size-11 border border-white/20 text-white transition-colors hover:border-accent-400 hover:bg-accent-400 hover:text-ink-950"
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
        <div className="shell flex flex-col gap-4 py-6 text-sm text-ink-300 md:flex-row md:items-center md:justify-between">
          <p>{withoutLoneLastWord(copyright, PARAGRAPH_PAIR)}</p>
          <ul className="flex flex-wrap gap-x-6 gap-y-2">
            {legalLinks.map((link) => (
              <li key={link.label}>
                <a
                  href={link.href}
                  aria-current={link.href === current ? "page" : undefined}
                  className={linkClass}
                >
                  {link.label}
                </a>
              </li>
            ))}
            {analytics ? (
              // Hidden without JavaScript (no bar to open); the consent script reveals it (decision 047).
              <li hidden {...{ [CONSENT_DOM.reveal]: "" }} suppressHydrationWarning>
                <button type="button" {...{ [CONSENT_DOM.action]: "open" }} className={linkClass}>
                  {consentText.settings}
                </button>
              </li>
            ) : null}
          </ul>
        </div>
      </div>
    </footer>
  );
}
