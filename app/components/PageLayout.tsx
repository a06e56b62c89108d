import type { ReactNode } from "react";

import { Footer } from "./Footer";
import { Header } from "./Header";
import type { SectionsOn } from "./MobileMenu";
import { SkipLink } from "./SkipLink";

/** The header is fixed: `main` reserves its height, so nothing sits under it. */
export function PageLayout({
  children,
  sectionsOn,
  current,
  mainClassName,
}: {
  children: ReactNode;
  sectionsOn?: SectionsOn;
  current?: string;
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
