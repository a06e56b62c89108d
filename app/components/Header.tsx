import { site } from "~/content/site";
import { headerCta, headerLinks, navigationText } from "~/content/navigation";

import { BrandMark } from "./BrandMark";
import { MobileMenu, type SectionsOn } from "./MobileMenu";

/**
 * Get Started stays at every width, one tap from the form; below 460 px the brand name gives way to
 * it (still read out as the home link's name).
 */
export function Header({ sectionsOn = "" }: { sectionsOn?: SectionsOn }) {
  return (
    <header className="on-ink fixed inset-x-0 top-0 z-50 h-(--header-height) border-b border-white/10 bg-ink-950/95">
      <div className="shell flex h-full items-center justify-between gap-4">
        <a href="/" className="flex items-center gap-3 text-white">
          <BrandMark />
          <span className="text-base font-bold tracking-tight whitespace-nowrap max-[460px]:sr-only sm:text-lg">
            {site.brandName}
          </span>
          <span className="sr-only">{navigationText.homeLabel}</span>
        </a>
        <nav aria-label={navigationText.primaryNavLabel} className="hidden lg:block">
          <ul className="flex items-center gap-1">
            {headerLinks.map((link) => (
              <li key={link.href}>
                <a
                  href={`${sectionsOn}${link.href}`}
                  className="rounded-full px-4 py-2 text-sm font-medium text-ink-200 transition-colors hover:bg-white/10 hover:text-white"
                >
                  {link.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div className="flex items-center gap-3">
          <a
            href={`${sectionsOn}${headerCta.href}`}
            className="btn btn-accent min-h-11 px-5 text-sm whitespace-nowrap"
          >
            {headerCta.label}
          </a>
          <MobileMenu sectionsOn={sectionsOn} />
        </div>
      </div>
    </header>
  );
}
