import { createHash } from "node:crypto";

import { HELD_SCRIPTS_ID } from "./paint-first";

/**
 * Pure steps on the rendered HTML. The patterns are exact text React and Remix write; React escapes
 * `<` and `"` in text and attributes, so they only ever match markup, never a visitor's words.
 */

/**
 * React writes `<RemixServer>`'s data scripts after `</html>`, where the standard allows nothing;
 * a parser puts them at the end of `<body>` anyway, so moving them there changes no DOM node.
 */
export function moveTrailingMarkupIntoBody(html: string): string {
  const end = html.lastIndexOf("</body></html>");
  if (end === -1) return html;
  const trailing = html.slice(end + "</body></html>".length);
  if (trailing === "") return html;
  return `${html.slice(0, end)}${trailing}</body></html>`;
}

/**
 * What `<Scripts>` writes, side by side: preloads, context script, module bootstrap (checked
 * against Remix's real output by test/lib/document/remix-markup.test.ts).
 */
const REMIX_SCRIPTS =
  /((?:<link rel="modulepreload" href="[^"]+"\/>)+)(<script>[^<]*<\/script>)<script type="module" async="">([\s\S]*?)<\/script>/g;

const PRELOAD_HREF = /href="([^"]+)"/g;

export interface HeldScripts {
  /** The document without the preloads and the bootstrap, which wait in a JSON data block. */
  html: string;
  /** The bootstrap's source, run later as an inline module: the policy allows exactly this text. */
  moduleSource: string;
  /** Where Remix's context script begins: all the page's own markup is before it. */
  scriptsStart: number;
}

/**
 * Paint first (decision 022): the preloads and bootstrap wait in a JSON data block, which runs
 * nothing, for the loader after it (`paint-first.inline.ts`). Throws when `<Scripts>` wrote
 * something else, so a Remix upgrade fails every document test instead of loading scripts early.
 */
export function holdScriptsUntilPaint(html: string, loaderSource: string): HeldScripts {
  // The last match: `<Scripts>` is rendered after all of the page, so markup that imitated it
  // inside the page (it would take a bug in React's escaping) can never be taken for it.
  const match = [...html.matchAll(REMIX_SCRIPTS)].at(-1);
  if (!match)
    throw new Error(
      "The document does not contain the markup Remix's <Scripts> writes (preloads, context script, module bootstrap): see app/lib/document/markup.server.ts.",
    );
  const [whole, links, contextScript, remixSource] = match as unknown as [string, string, string, string];
  const moduleSource = compactManifest(remixSource);
  const preloads = [...links.matchAll(PRELOAD_HREF)].map((href) => href[1]);
  // `<` escaped, so neither `</script>` nor `<!--` can end or change the data block.
  const data = JSON.stringify({ preloads, module: moduleSource }).replace(/</g, "\\u003c");
  const block = `<script type="application/json" id="${HELD_SCRIPTS_ID}">${data}</script>`;
  const loader = `<script>${loaderSource}</script>`;
  const before = html.slice(0, match.index);
  return {
    html: `${before}${contextScript}${block}${loader}${html.slice(match.index + whole.length)}`,
    moduleSource,
    scriptsStart: before.length,
  };
}

const MANIFEST = /(window\.__remixManifest = )(\{[\s\S]*?\n\});/;

/** The route manifest Remix pretty-prints, as compact JSON: 350 bytes less in every first visit. */
const compactManifest = (source: string) =>
  source.replace(MANIFEST, (whole, start: string, json: string) => {
    try {
      return `${start}${JSON.stringify(JSON.parse(json))};`;
    } catch {
      return whole; // Not JSON after some Remix upgrade: kept as written (remix-markup.test.tsx fails).
    }
  });

const SCRIPT_ELEMENT = /<script\b([^>]*)>([\s\S]*?)<\/script>/g;
const JAVASCRIPT_TYPE = /^(?:module|(?:text|application)\/(?:x-)?(?:java|ecma)script)$/i;

/** The text of every inline script a browser would run (not data blocks, not `src` scripts). */
export function executableInlineScripts(html: string): string[] {
  const scripts: string[] = [];
  for (const [, attributes = "", text = ""] of html.matchAll(SCRIPT_ELEMENT)) {
    if (/\ssrc=/.test(attributes)) continue;
    const type = /\stype="([^"]*)"/.exec(attributes)?.[1]?.trim();
    if (type && !JAVASCRIPT_TYPE.test(type)) continue;
    scripts.push(text);
  }
  return scripts;
}

/** A CSP hash source for one script's exact text (UTF-8, as browsers hash it). */
export function scriptHashSource(text: string): string {
  return `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;
}

export interface ScriptSources {
  /** One hash per script the document may run. */
  hashes: string[];
  /** Inline scripts inside the page's own markup: none is written there, so none is allowed. */
  refused: number;
}

/**
 * Hashes of the scripts from Remix's context script on, and of the restored bootstrap. A script
 * in the page's markup, where a visitor's values are, is never hashed: one injected past React's
 * escaping is refused, as a nonce would have it (decision 011).
 */
export function scriptSources({ html, moduleSource, scriptsStart }: HeldScripts): ScriptSources {
  const scripts = [...executableInlineScripts(html.slice(scriptsStart)), moduleSource];
  return {
    hashes: [...new Set(scripts.map(scriptHashSource))],
    refused: executableInlineScripts(html.slice(0, scriptsStart)).length,
  };
}
