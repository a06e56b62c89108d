import type { SectionIntro } from "~/content/types";
import { HEADING_PAIR, PARAGRAPH_PAIR, withoutLoneLastWord } from "~/lib/typography";

interface SectionHeadingProps {
  intro: SectionIntro;
  /** For the section's aria-labelledby. */
  id: string;
  /** split: from lg the lead sits beside the heading, saving height. */
  align?: "left" | "center" | "split";
  className?: string;
}

const layouts = {
  left: "max-w-3xl",
  center: "mx-auto max-w-3xl text-center",
  split: "grid gap-5 lg:grid-cols-[1.1fr_0.9fr] lg:items-end lg:gap-16",
} as const;

/** Colours come from the section: `.on-ink` turns them for a dark one. */
export function SectionHeading({ intro, id, align = "left", className = "" }: SectionHeadingProps) {
  return (
    <div className={`${layouts[align]} ${className}`}>
      <div>
        <p className="eyebrow">{intro.eyebrow}</p>
        <h2 id={id} className="heading mt-3">
          {withoutLoneLastWord(intro.heading, HEADING_PAIR)}
        </h2>
      </div>
      <p className={`lead ${align === "split" ? "" : "mt-4"}`}>
        {withoutLoneLastWord(intro.lead, PARAGRAPH_PAIR)}
      </p>
    </div>
  );
}
