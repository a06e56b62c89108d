// The home document as a build artifact (decision 041): `npm run build` asks the app for each home
// page once and writes it beside the build with its brotli and gzip bytes; `npm start` serves them
// as files (server/front-door.ts). The bytes also depend on SITE_URL and GA_MEASUREMENT_ID: a
// server started with other values makes its own at start, and says so.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

import { createRequestHandler, type ServerBuild } from "@remix-run/node";

import { contactSentSearch } from "~/lib/contact/answer";

import { compressOnce, entityTagOf } from "./compress";
import type { Encoding } from "./http-rules";

/** The pages made at build: the page, and the page a no-JavaScript sender is redirected to. */
export const HOME_PAGES = { home: "", "contact-sent": contactSentSearch } as const;
export type HomePage = keyof typeof HOME_PAGES;

/** The settings the document's bytes depend on (the root loader's data, the policy). */
export interface DocumentSettings {
  SITE_URL: string;
  GA_MEASUREMENT_ID: string | null;
}

export function documentSettings(env: { SITE_URL: string; GA_MEASUREMENT_ID?: string | undefined }) {
  return { SITE_URL: env.SITE_URL, GA_MEASUREMENT_ID: env.GA_MEASUREMENT_ID ?? null };
}

export interface PrerenderedPage {
  /** The app's headers that belong to the document (its policy, type, caching). */
  headers: Record<string, string>;
  /** Opaque part of the entity tags; each encoding is its own representation (`-br`, `-gzip`). */
  tag: string;
  bodies: Record<Encoding, Buffer>;
}

export type HomeDocuments = Record<HomePage, PrerenderedPage>;

/** What `manifest.json` holds: everything but the bodies, which are files beside it. */
interface Manifest {
  build: string;
  settings: DocumentSettings;
  pages: Record<HomePage, Omit<PrerenderedPage, "bodies">>;
}

const FOLDER = "home";
const FILES: Record<Encoding, string> = { identity: ".html", br: ".html.br", gzip: ".html.gz" };
const KEPT_HEADERS = ["content-security-policy", "content-type", "cache-control"];

/**
 * Asks the app for each home page as a visitor's GET would, so it takes the one document pipeline
 * (app/lib/document/). Anything but a 200 is a build that cannot serve its page: it throws.
 */
export async function prerenderHome(build: ServerBuild, settings: DocumentSettings): Promise<HomeDocuments> {
  const handle = createRequestHandler(build, build.mode);
  const pages = {} as HomeDocuments;
  for (const [page, search] of Object.entries(HOME_PAGES) as [HomePage, string][]) {
    const url = new URL(`/${search}`, settings.SITE_URL);
    const response = await handle(new Request(url), { prerender: true });
    const html = await response.text();
    if (response.status !== 200)
      throw new Error(`GET ${url.pathname}${url.search} answered ${response.status}, not the page.`);
    const kept = KEPT_HEADERS.filter((name) => response.headers.has(name));
    const headers = Object.fromEntries(kept.map((name) => [name, response.headers.get(name)!]));
    const identity = Buffer.from(html, "utf8");
    const bodies = { identity, ...(await compressOnce(identity)) };
    pages[page] = { headers, tag: entityTagOf(bodies.identity), bodies };
  }
  return pages;
}

/** Writes the pages into `<buildDir>/home/`, replacing what an earlier build wrote. */
export function writeHome(
  buildDir: string,
  buildVersion: string,
  settings: DocumentSettings,
  pages: HomeDocuments,
) {
  const dir = join(buildDir, FOLDER);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const manifest: Manifest = { build: buildVersion, settings, pages: {} as Manifest["pages"] };
  for (const [page, { bodies, ...rest }] of Object.entries(pages) as [HomePage, PrerenderedPage][]) {
    for (const encoding of Object.keys(FILES) as Encoding[])
      writeFileSync(join(dir, `${page}${FILES[encoding]}`), bodies[encoding]);
    manifest.pages[page] = rest;
  }
  writeFileSync(join(dir, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
}

/** The pages `npm run build` wrote for this build and these settings, or why they cannot be used. */
export function readHome(
  buildDir: string,
  buildVersion: string,
  settings: DocumentSettings,
): { pages: HomeDocuments } | { unusable: string } {
  const dir = join(buildDir, FOLDER);
  let manifest: Manifest;
  try {
    manifest = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")) as Manifest;
  } catch {
    return { unusable: `the build has no ${FOLDER}/manifest.json` };
  }
  if (manifest.build !== buildVersion) return { unusable: `${FOLDER}/ was written for another build` };
  const differing = (Object.keys(settings) as (keyof DocumentSettings)[]).filter(
    (name) => manifest.settings[name] !== settings[name],
  );
  if (differing.length > 0)
    return {
      unusable: `${differing.join(" and ")} differ from the build's (made with ${describe(manifest.settings)})`,
    };
  const pages = {} as HomeDocuments;
  for (const page of Object.keys(HOME_PAGES) as HomePage[]) {
    const bodies = {} as Record<Encoding, Buffer>;
    for (const encoding of Object.keys(FILES) as Encoding[])
      bodies[encoding] = readFileSync(join(dir, `${page}${FILES[encoding]}`));
    // A file cut short or replaced by hand would be served to everyone: the tag is its digest.
    if (entityTagOf(bodies.identity) !== manifest.pages[page].tag)
      return { unusable: `${FOLDER}/${page}.html does not match its manifest` };
    pages[page] = { ...manifest.pages[page], bodies };
  }
  return { pages };
}

function describe(settings: DocumentSettings): string {
  return `SITE_URL=${settings.SITE_URL}, GA_MEASUREMENT_ID=${settings.GA_MEASUREMENT_ID ?? "unset"}`;
}

/** The line ops read once per start: what every visitor of `/` is sent, and where it came from. */
export function homeDocumentLog(pages: HomeDocuments, source: string): string[] {
  return (Object.entries(pages) as [HomePage, PrerenderedPage][]).map(([page, { bodies, headers }]) =>
    JSON.stringify({
      event: "home_document",
      page,
      source,
      bytes: { html: bodies.identity.length, br: bodies.br.length, gzip: bodies.gzip.length },
      scriptHashes: (headers["content-security-policy"]?.match(/'sha256-/g) ?? []).length,
    }),
  );
}
