/**
 * The `<section>` of each static island, rendered by React in the browser too (ids, landmarks, order);
 * only its inside is server HTML, never hydrated (docs/decisions/021-static-islands.md).
 */
export interface SectionFrame {
  id?: string;
  "aria-labelledby": string;
  className: string;
}

export const sectionFrames = {
  hero: {
    "aria-labelledby": "hero-heading",
    className: "on-ink backdrop-hero relative isolate overflow-hidden bg-ink-950 text-white",
  },
  services: { id: "services", "aria-labelledby": "services-heading", className: "band bg-paper" },
  about: { id: "about", "aria-labelledby": "about-heading", className: "band band-rule bg-paper" },
  community: {
    id: "community",
    "aria-labelledby": "community-heading",
    className: "on-ink band backdrop-community relative isolate overflow-hidden bg-ink-950 text-white",
  },
  results: {
    id: "results",
    "aria-labelledby": "results-heading",
    className: "on-ink band bg-ink-950 text-white",
  },
  process: {
    id: "process",
    "aria-labelledby": "process-heading",
    className: "on-ink band bg-ink-950 text-white",
  },
  academy: { id: "academy", "aria-labelledby": "academy-heading", className: "band bg-paper" },
} satisfies Record<string, SectionFrame>;

export type StaticSectionName = keyof typeof sectionFrames;
