// Compression for bytes made once (decision 041), so the smallest bytes are worth the time: brotli
// at its best quality and gzip at 9.
import { createHash } from "node:crypto";
import { promisify } from "node:util";
import { brotliCompress, constants as zlib, gzip } from "node:zlib";

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

export async function compressOnce(bytes: Buffer): Promise<{ br: Buffer; gzip: Buffer }> {
  const [br, gz] = await Promise.all([
    brotli(bytes, {
      params: {
        [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY,
        [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT,
        [zlib.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      },
    }),
    gzipped(bytes, { level: zlib.Z_BEST_COMPRESSION }),
  ]);
  return { br, gzip: gz };
}

/** The opaque part of the entity tags of bytes served from memory: their digest. */
export const entityTagOf = (bytes: Buffer) =>
  createHash("sha256").update(bytes).digest("base64url").slice(0, 32);
