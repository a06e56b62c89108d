import { sectionFrames, type StaticSectionName } from "./section-frames";
import * as serverOnly from "./static-sections.server";

/**
 * In the browser build `*.server` modules are empty, so these functions are undefined there: the
 * islands render an empty `__html`, which React neither compares while hydrating (production) nor
 * applies afterwards while it stays the same, so the server's markup is kept as it is.
 */
const islands = serverOnly as Partial<typeof serverOnly>;

/**
 * A section with no client behaviour: React renders its `<section>` (id, landmark, order) but its
 * inside is HTML rendered on the server and never hydrated. Only for the home route, which is always
 * loaded as a document (see docs/decisions/021-static-islands.md).
 */
export function StaticSection({ name }: { name: StaticSectionName }) {
  const html = islands.staticSectionHtml?.(name) ?? "";
  return (
    <section {...sectionFrames[name]} dangerouslySetInnerHTML={{ __html: html }} suppressHydrationWarning />
  );
}

/** The page's icon symbols (drawn by `Icon` with `<use>`), server HTML kept like a static section. */
export function IconSprite() {
  const html = islands.homeIconSpriteHtml?.() ?? "";
  return <div hidden dangerouslySetInnerHTML={{ __html: html }} suppressHydrationWarning />;
}
