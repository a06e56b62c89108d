import type { ReactNode } from "react";

import { Footer } from "./Footer";
import { Header } from "./Header";
import type { SectionsOn } from "./MobileMenu";
import { SkipLink } from "./SkipLink";

/**
 * The shell every page shares: the skip link, the site's header, the page's `main` and the site's
 * footer. `sectionsOn` is where the header's and footer's section links lead ("" on the home page,
 * "/" elsewhere); `current` marks the footer's link to this page. The header is fixed: `main`
 * reserves its height, so nothing sits or moves under it.
 */
export function PageLayout({
  children,
  sectionsOn,
  current,
  mainClassName,
}: {
  children: ReactNode;
  sectionsOn?: SectionsOn;
  current?: string;
  /** The page's own look for `main`, before the classes every page's `main` has. */
  mainClassName?: string;
}) {
  return (
    <>
      <SkipLink />
      <Header sectionsOn={sectionsOn} />
      <main
        id="main"
        tabIndex={-1}
        className={`${mainClassName ? `${mainClassName} ` : ""}pt-(--header-height) focus:outline-none`}
      >
        {children}
      </main>
      <Footer sectionsOn={sectionsOn} current={current} />
    </>
  );
}
