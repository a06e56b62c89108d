// The build's and public/'s files, held in memory by `npm start` and answered by the front door
// (decision 041): their bytes change only with a deploy, so each is compressed once, not per
// request. A kind not listed here is left to Express (`express.static`).
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { extname, join, relative, sep } from "node:path";

import { CACHE_CONTROL } from "~/lib/security/headers.server";

import { compressOnce, entityTagOf } from "./compress";
import type { Encoding } from "./http-rules";

/** The kinds of file the site serves, with the Content-Type `express.static` gave them. */
const TYPES: Record<string, { type: string; text: boolean }> = {
  ".js": { type: "text/javascript; charset=utf-8", text: true },
  ".css": { type: "text/css; charset=utf-8", text: true },
  ".svg": { type: "image/svg+xml", text: true },
  ".webmanifest": { type: "application/manifest+json; charset=utf-8", text: true },
  ".png": { type: "image/png", text: false },
  ".ico": { type: "image/vnd.microsoft.icon", text: false },
};

/** Below this, compression saves less than its headers cost (the middleware's threshold). */
const COMPRESS_FROM_BYTES = 1024;

export interface StaticFile {
  /** Opaque part of the entity tags (the identity bytes' digest); each encoding its own tag. */
  tag: string;
  bodies: Partial<Record<Encoding, Buffer>> & { identity: Buffer };
  headers: Record<string, string>;
}

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isFile());
}

const worthCompressing = (path: string, size: number) =>
  TYPES[extname(path)]?.text === true && size >= COMPRESS_FROM_BYTES;

/** `npm run build`: writes `<file>.br` and `<file>.gz` beside each text file of the browser build. */
export async function precompressAssets(assetsDir: string): Promise<number> {
  const files = filesUnder(assetsDir).filter((path) => worthCompressing(path, statSync(path).size));
  for (const path of files) {
    const { br, gzip } = await compressOnce(readFileSync(path));
    writeFileSync(`${path}.br`, br);
    writeFileSync(`${path}.gz`, gzip);
  }
  return files.length;
}

async function load(path: string, cacheControl: string): Promise<StaticFile | null> {
  const kind = TYPES[extname(path)];
  if (!kind) return null;
  const identity = readFileSync(path);
  const bodies: StaticFile["bodies"] = { identity };
  if (worthCompressing(path, identity.length)) {
    // The build's own, when it wrote them; else made now (public/'s few text files).
    const written = statSync(path).mtimeMs;
    const built = [`${path}.br`, `${path}.gz`].every(
      (sidecar) => existsSync(sidecar) && statSync(sidecar).mtimeMs >= written,
    );
    Object.assign(
      bodies,
      built
        ? { br: readFileSync(`${path}.br`), gzip: readFileSync(`${path}.gz`) }
        : await compressOnce(identity),
    );
  }
  return {
    tag: entityTagOf(identity),
    bodies,
    headers: {
      "content-type": kind.type,
      "cache-control": cacheControl,
      "last-modified": statSync(path).mtime.toUTCString(),
      ...(kind.text ? { vary: "Accept-Encoding" } : {}),
    },
  };
}

/** Every file `express.static` would serve, by URL path; the build's win where the two meet. */
export async function loadStaticFiles({
  publicDir,
  assetsDir,
  publicPath,
}: {
  publicDir: string;
  assetsDir: string;
  publicPath: string;
}): Promise<Map<string, StaticFile>> {
  const files = new Map<string, StaticFile>();
  const urlPath = (dir: string, path: string, prefix: string) =>
    `${prefix}${relative(dir, path).split(sep).join("/")}`;
  for (const [dir, prefix, cacheControl] of [
    [publicDir, "/", CACHE_CONTROL.file],
    [assetsDir, publicPath.endsWith("/") ? publicPath : `${publicPath}/`, CACHE_CONTROL.asset],
  ] as const) {
    const others = dir === publicDir ? relative(publicDir, assetsDir) : null;
    for (const path of filesUnder(dir)) {
      // The build's files under public/ (public/build/ by default) are loaded once, as the build's.
      if (
        others !== null &&
        !others.startsWith("..") &&
        others !== "" &&
        `${relative(publicDir, path)}`.startsWith(`${others}${sep}`)
      )
        continue;
      const file = await load(path, cacheControl);
      if (file) files.set(urlPath(dir, path, prefix), file);
    }
  }
  return files;
}
