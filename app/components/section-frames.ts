/**
 * The outer `<section>` of each section that needs no JavaScript (a static island). The section
 * element itself is rendered by React in the browser too (ids, landmarks and order stay in the
 * tree); only its inside is server-rendered HTML. See docs/decisions/021-static-islands.md.
 */
export interface SectionFrame {
  id?: string;
  "aria-labelledby": string;
  className: string;
}

export const sectionFrames = {
  hero: {
    "aria-labelledby": "hero-heading",
    className: "on-ink relative isolate overflow-hidden bg-ink-950 text-white",
  },
  services: { id: "services", "aria-labelledby": "services-heading", className: "bg-paper py-24 sm:py-32" },
  about: { id: "about", "aria-labelledby": "about-heading", className: "bg-white py-24 sm:py-32" },
  community: {
    id: "community",
    "aria-labelledby": "community-heading",
    className: "on-ink relative isolate overflow-hidden bg-ink-950 py-24 sm:py-32",
  },
  results: {
    id: "results",
    "aria-labelledby": "results-heading",
    className: "on-ink bg-ink-950 py-24 sm:py-32",
  },
  process: { id: "process", "aria-labelledby": "process-heading", className: "bg-white py-24 sm:py-32" },
  academy: {
    id: "academy",
    "aria-labelledby": "academy-heading",
    className: "bg-paper px-4 py-24 sm:px-6 sm:py-32 lg:px-8",
  },
} satisfies Record<string, SectionFrame>;

export type StaticSectionName = keyof typeof sectionFrames;
