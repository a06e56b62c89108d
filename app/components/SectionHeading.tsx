import type { SectionIntro } from "~/content/types";

interface SectionHeadingProps {
  intro: SectionIntro;
  /** id of the heading, referenced by the section's aria-labelledby. */
  id: string;
  tone?: "light" | "dark";
  align?: "left" | "center";
}

/** Eyebrow, heading and lead shared by every section, in the site's type scale. */
export function SectionHeading({ intro, id, tone = "light", align = "left" }: SectionHeadingProps) {
  const dark = tone === "dark";
  return (
    <div className={align === "center" ? "mx-auto max-w-3xl text-center" : "max-w-3xl"}>
      <p
        className={`text-sm font-semibold tracking-[0.14em] uppercase ${dark ? "text-accent-400" : "text-accent-800"}`}
      >
        {intro.eyebrow}
      </p>
      <h2
        id={id}
        className={`mt-3 text-3xl font-bold tracking-tight text-balance sm:text-4xl lg:text-5xl ${dark ? "text-white" : "text-ink-950"}`}
      >
        {intro.heading}
      </h2>
      <p className={`mt-5 text-lg leading-relaxed text-pretty ${dark ? "text-ink-300" : "text-ink-600"}`}>
        {intro.lead}
      </p>
    </div>
  );
}
