import { site } from "~/content/site";
import { headerCta, headerLinks, navigationText } from "~/content/navigation";

import { BrandMark } from "./BrandMark";
import { MobileMenu } from "./MobileMenu";

/** The fixed header: brand, section links (desktop), Get Started and the mobile menu. */
export function Header() {
  return (
    <header className="on-ink fixed inset-x-0 top-0 z-50 h-(--header-height) border-b border-white/10 bg-ink-950/95">
      <div className="mx-auto flex h-full max-w-7xl items-center justify-between gap-6 px-4 sm:px-6 lg:px-8">
        <a href="/" className="flex items-center gap-3 text-white">
          <BrandMark />
          <span className="text-base font-bold tracking-tight sm:text-lg">{site.brandName}</span>
          <span className="sr-only">{navigationText.homeLabel}</span>
        </a>
        <nav aria-label={navigationText.primaryNavLabel} className="hidden lg:block">
          <ul className="flex items-center gap-1">
            {headerLinks.map((link) => (
              <li key={link.href}>
                <a
                  href={link.href}
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
            href={headerCta.href}
            className="hidden min-h-11 items-center rounded-full bg-accent-400 px-5 text-sm font-semibold text-ink-950 transition-colors hover:bg-accent-300 sm:inline-flex"
          >
            {headerCta.label}
          </a>
          <MobileMenu />
        </div>
      </div>
    </header>
  );
}
