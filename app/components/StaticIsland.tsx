import { sectionFrames, type StaticSectionName } from "./section-frames";
import * as serverOnly from "./static-sections.server";

/** Undefined in the browser build, where `*.server` modules are empty. */
const islands = serverOnly as Partial<typeof serverOnly>;

/** Each island's markup at its first browser render: every later render passes the same string. */
const keptInBrowser = new Map<string, string>();

/**
 * In the browser, the server's markup read once from the document: React leaves an unchanged
 * `dangerouslySetInnerHTML` alone, and a fresh render writes the same markup back
 * (docs/decisions/021-static-islands.md).
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
