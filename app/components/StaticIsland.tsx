import { sectionFrames, type StaticSectionName } from "./section-frames";
import * as serverOnly from "./static-sections.server";

/** Undefined in the browser build, where `*.server` modules are empty. */
const islands = serverOnly as Partial<typeof serverOnly>;

/** What each island held when the browser first rendered it, so every later render passes the same string. */
const keptInBrowser = new Map<string, string>();

/**
 * The island's HTML: rendered on the server; in the browser, the markup the server sent, read once
 * from the document. React does not compare `dangerouslySetInnerHTML` while hydrating and does not
 * touch it while the string stays the same, so the server's markup is kept; and if React ever has
 * to render the page afresh (a hydration error elsewhere), it writes back the same markup instead
 * of emptying the section. Empty only if the document never had it (a client-side navigation to
 * `/`, which the site does not make: see docs/decisions/021-static-islands.md).
 */
export function islandHtml(key: string, render: (() => string) | undefined): string {
  if (render) return render();
  let html = keptInBrowser.get(key);
  if (html === undefined) {
    html =
      typeof document === "undefined"
        ? ""
        : (document.querySelector(`[data-island="${key}"]`)?.innerHTML ?? "");
    keptInBrowser.set(key, html);
  }
  return html;
}

/**
 * A section with no client behaviour: React renders its `<section>` (id, landmark, order) but its
 * inside is HTML rendered on the server, never hydrated, and its copy ships no JavaScript.
 */
export function StaticSection({ name }: { name: StaticSectionName }) {
  const render = islands.staticSectionHtml;
  return (
    <section
      {...sectionFrames[name]}
      data-island={name}
      dangerouslySetInnerHTML={{ __html: islandHtml(name, render && (() => render(name))) }}
      suppressHydrationWarning
    />
  );
}
