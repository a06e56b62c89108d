import type { StatusPageText } from "~/content/types";

import { BrandMark } from "./BrandMark";
import { PageLayout } from "./PageLayout";

/**
 * The 404 and 400 pages, in the site's layout: a visitor from a broken link still knows whose site
 * this is, and every route shares one script for the header and footer.
 */
export function StatusScreen({ text }: { text: StatusPageText }) {
  return (
    <PageLayout
      sectionsOn="/"
      mainClassName="on-ink relative isolate flex min-h-screen flex-col items-center justify-center overflow-hidden bg-ink-950 px-6 pb-12 text-center text-white"
    >
      <div aria-hidden="true" className="pointer-events-none absolute inset-0 -z-10">
        <div className="absolute top-1/4 left-1/2 h-[30rem] w-[40rem] -translate-x-1/2 glow-accent-400 opacity-10" />
      </div>
      <BrandMark className="size-12" />
      <p className="mt-8 text-8xl font-bold tracking-tight text-accent-400 sm:text-9xl">{text.code}</p>
      <h1 className="mt-4 text-3xl font-bold tracking-tight sm:text-4xl">{text.heading}</h1>
      <p className="mt-4 max-w-md text-lg text-ink-300">{text.message}</p>
      <a
        href="/"
        className="mt-10 inline-flex min-h-12 items-center rounded-full bg-accent-400 px-7 font-semibold text-ink-950 transition-colors hover:bg-accent-300"
      >
        {text.homeLink}
      </a>
    </PageLayout>
  );
}
