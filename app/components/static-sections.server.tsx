import type { ComponentType } from "react";
import { renderToStaticMarkup } from "react-dom/server";

import { AboutContent } from "./About";
import { AcademyContent } from "./Academy";
import { CommunityContent } from "./Community";
import { HeroContent } from "./Hero";
import { ProcessContent } from "./Process";
import { ResultsContent } from "./Results";
import type { StaticSectionName } from "./section-frames";
import { ServicesContent } from "./Services";

/** Server only (decision 021): the browser build empties this module, so none of it ships. */
const contents: Record<StaticSectionName, ComponentType> = {
  hero: HeroContent,
  services: ServicesContent,
  about: AboutContent,
  community: CommunityContent,
  results: ResultsContent,
  process: ProcessContent,
  academy: AcademyContent,
};

/** The page's copy is fixed at build time, so each section is rendered once per process. */
const sectionHtml = new Map<StaticSectionName, string>();

export function staticSectionHtml(name: StaticSectionName): string {
  let html = sectionHtml.get(name);
  if (html === undefined) {
    const Content = contents[name];
    html = renderToStaticMarkup(<Content />);
    sectionHtml.set(name, html);
  }
  return html;
}
