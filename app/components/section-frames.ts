/**
 * The sections after #contact are neither styled, laid out nor painted until they near the
 * viewport (`content-visibility: auto`); meanwhile each holds its measured height (phone / sm / lg;
 * then the height it last rendered at). Only after #contact: a jump to a section (header links,
 * hero buttons) scrolls past everything above it, and estimated heights there made a smooth
 * scroll land hundreds of pixels off (e2e navigation). #contact itself is excluded too: its toast
 * viewport is `position: fixed`, which layout containment would pin to the section.
 */
export const deferredRender = {
  process:
    "[content-visibility:auto] [contain-intrinsic-size:auto_1570px] sm:[contain-intrinsic-size:auto_1470px] lg:[contain-intrinsic-size:auto_910px]",
  academy:
    "[content-visibility:auto] [contain-intrinsic-size:auto_940px] sm:[contain-intrinsic-size:auto_910px] lg:[contain-intrinsic-size:auto_710px]",
  faq: "[content-visibility:auto] [contain-intrinsic-size:auto_1000px] lg:[contain-intrinsic-size:auto_930px]",
  footer:
    "[content-visibility:auto] [contain-intrinsic-size:auto_920px] lg:[contain-intrinsic-size:auto_420px]",
} as const;

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
  services: {
    id: "services",
    "aria-labelledby": "services-heading",
    className: `bg-paper py-24 sm:py-32`,
  },
  about: {
    id: "about",
    "aria-labelledby": "about-heading",
    className: `bg-white py-24 sm:py-32`,
  },
  community: {
    id: "community",
    "aria-labelledby": "community-heading",
    className: `on-ink relative isolate overflow-hidden bg-ink-950 py-24 sm:py-32`,
  },
  results: {
    id: "results",
    "aria-labelledby": "results-heading",
    className: `on-ink bg-ink-950 py-24 sm:py-32`,
  },
  process: {
    id: "process",
    "aria-labelledby": "process-heading",
    className: `bg-white py-24 sm:py-32 ${deferredRender.process}`,
  },
  academy: {
    id: "academy",
    "aria-labelledby": "academy-heading",
    className: `bg-paper px-4 py-24 sm:px-6 sm:py-32 lg:px-8 ${deferredRender.academy}`,
  },
} satisfies Record<string, SectionFrame>;

export type StaticSectionName = keyof typeof sectionFrames;
