import { StringDecoder } from "node:string_decoder";
import { Transform, type TransformCallback } from "node:stream";

import { HELD_MODULE_TYPE, HELD_PRELOAD_REL } from "./paint-first";

/**
 * Exact text Remix's <Scripts> writes, and what this stream writes instead. React escapes `<` and
 * `"` in text and attribute values, so these strings can only occur as markup, never as content.
 */
export function documentRewrites(nonce: string): [from: string, to: string][] {
  return [
    // Remix writes module preloads without the nonce it gives the scripts. Under
    // `'strict-dynamic'` a browser may refuse such a preload (the spec checks the
    // link's own nonce), so each one gets it here.
    ['<link rel="modulepreload"', `<link rel="${HELD_PRELOAD_REL}" nonce="${nonce}"`],
    // Held until after the first paint (decision 022); the inline loader restores it.
    ['type="module" async=""', `type="${HELD_MODULE_TYPE}" async=""`],
  ];
}

/**
 * Rewrites the document as it streams through, replacing each `from` with its
 * `to`. Holds back at most a pattern's first few bytes when a chunk ends in the
 * middle of one, and never splits a multi-byte character.
 */
export function createRewriteStream(rewrites: [from: string, to: string][]): Transform {
  const decoder = new StringDecoder("utf8");
  const longest = Math.max(...rewrites.map(([from]) => from.length));
  let carry = "";

  const replaceAll = (text: string) =>
    rewrites.reduce((result, [from, to]) => result.split(from).join(to), text);

  /** How many trailing characters of `text` could start a pattern. */
  const partialTail = (text: string) => {
    for (let length = Math.min(longest - 1, text.length); length > 0; length--) {
      const tail = text.slice(text.length - length);
      if (rewrites.some(([from]) => from.startsWith(tail))) return length;
    }
    return 0;
  };

  return new Transform({
    transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
      const text = carry + decoder.write(chunk);
      const keep = partialTail(text);
      carry = keep ? text.slice(text.length - keep) : "";
      callback(null, replaceAll(keep ? text.slice(0, text.length - keep) : text));
    },
    flush(callback: TransformCallback) {
      callback(null, replaceAll(carry + decoder.end()));
    },
  });
}

export function createDocumentStream(nonce: string): Transform {
  return createRewriteStream(documentRewrites(nonce));
}
