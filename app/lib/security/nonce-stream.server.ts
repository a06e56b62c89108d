import { StringDecoder } from "node:string_decoder";
import { Transform, type TransformCallback } from "node:stream";

const PRELOAD = '<link rel="modulepreload"';

/**
 * Remix's <Scripts> writes `<link rel="modulepreload">` tags without the nonce
 * it gives the scripts. Under `script-src 'nonce-…' 'strict-dynamic'` a browser
 * may refuse such a preload (the spec checks the link's own nonce; Chromium lets
 * it through, others need not), which costs a violation report and the
 * preload's head start. This stream adds the response's nonce to each of them
 * as the HTML passes through, holding back at most a tag's first few bytes when
 * a chunk ends in the middle of one.
 */
export function createPreloadNonceStream(nonce: string): Transform {
  const decoder = new StringDecoder("utf8");
  const replacement = `${PRELOAD} nonce="${nonce}"`;
  let carry = "";

  /** How many trailing characters of `text` could be the start of PRELOAD. */
  const partialTail = (text: string) => {
    for (let length = Math.min(PRELOAD.length - 1, text.length); length > 0; length--) {
      if (PRELOAD.startsWith(text.slice(text.length - length))) return length;
    }
    return 0;
  };

  return new Transform({
    transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
      const text = carry + decoder.write(chunk);
      const keep = partialTail(text);
      carry = keep ? text.slice(text.length - keep) : "";
      const ready = keep ? text.slice(0, text.length - keep) : text;
      callback(null, ready.split(PRELOAD).join(replacement));
    },
    flush(callback: TransformCallback) {
      callback(null, (carry + decoder.end()).split(PRELOAD).join(replacement));
    },
  });
}
