import type { ComponentType } from "react";
import { renderToStaticMarkup } from "react-dom/server";

import { footerSocialLinks } from "~/content/footer";
import type { IconName } from "~/content/types";

import { AboutContent } from "./About";
import { AcademyContent } from "./Academy";
import { CommunityContent } from "./Community";
import { HeroContent } from "./Hero";
import { iconSymbolId } from "./Icon";
import { iconPaths } from "./icon-paths.server";
import { ProcessContent } from "./Process";
import { ResultsContent } from "./Results";
import type { StaticSectionName } from "./section-frames";
import { ServicesContent } from "./Services";

/**
 * Server only: the browser build replaces this module with an empty one, so none of these
 * sections' copy or components ship as JavaScript. See docs/decisions/021-static-islands.md.
 */
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

/**
 * Icons drawn by the hydrated parts of the home page (header menu, testimonials, contact, FAQ,
 * footer). The islands' icons are read from their HTML. A page test checks that the sprite holds
 * exactly the icons the page uses.
 */
const hydratedIcons: IconName[] = [
  "menu",
  "close",
  "arrow-right",
  "star",
  "mail",
  "pin",
  "clock",
  ...footerSocialLinks.map((link) => link.icon),
];

function iconsUsedByIslands(): IconName[] {
  const html = (Object.keys(contents) as StaticSectionName[]).map(staticSectionHtml).join("");
  const names = Array.from(html.matchAll(/href="#icon-([a-z-]+)"/g), (match) => match[1]);
  return names.filter((name): name is IconName => Boolean(name && name in iconPaths));
}

let spriteHtml: string | undefined;

/** One hidden `<svg>` of `<symbol>`s: every icon the home page uses, once. */
export function homeIconSpriteHtml(): string {
  if (spriteHtml === undefined) {
    const names = Array.from(new Set([...iconsUsedByIslands(), ...hydratedIcons])).sort();
    spriteHtml = renderToStaticMarkup(
      <svg xmlns="http://www.w3.org/2000/svg">
        {names.map((name) => (
          <symbol key={name} id={iconSymbolId(name)} viewBox="0 0 24 24">
            <path d={iconPaths[name]} />
          </symbol>
        ))}
      </svg>,
    );
  }
  return spriteHtml;
}
