import type { ReactNode } from "react";

import { HEADING_PAIR, withoutLoneLastWord } from "~/lib/typography";

export function PrivacySection({
  id,
  heading,
  children,
}: {
  id: string;
  heading: string;
  children: ReactNode;
}) {
  return (
    <section
      id={id}
      aria-labelledby={`${id}-heading`}
      className="border-t border-ink-200 pt-10 not-first:mt-10 first:border-t-0 first:pt-0"
    >
      <h2 id={`${id}-heading`} className="text-2xl font-bold tracking-tight text-ink-950 sm:text-3xl">
        {withoutLoneLastWord(heading, HEADING_PAIR)}
      </h2>
      <div className="mt-4 space-y-4 leading-relaxed text-ink-600">{children}</div>
    </section>
  );
}
