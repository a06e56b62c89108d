/** Reads a contact form submission without trusting its size or encoding. */

export const MAX_FORM_BYTES = 16 * 1024;

const FORM_TYPES = new Set(["application/x-www-form-urlencoded", "multipart/form-data"]);

/** A field as it arrived: text, a file, or several values when the field was repeated. */
export type RawFieldValue = string | File | Array<string | File>;

export type FormBody =
  | { kind: "ok"; fields: Record<string, RawFieldValue> }
  /** `drained`: the rest was read and discarded, so the connection can stay open for the answer. */
  | { kind: "too-large"; drained: boolean }
  | { kind: "unsupported-type" }
  | { kind: "malformed" };

export function mediaType(contentType: string | null): string {
  return (contentType ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
}

/**
 * How much of a refused body is read and discarded so the 413 arrives whole: a socket closed with
 * unread data is reset by the kernel, cutting the answer short. Past this, it is closed anyway.
 */
export const MAX_DISCARD_BYTES = 256 * 1024;

type Limited = { kind: "ok"; bytes: Uint8Array } | { kind: "too-large"; drained: boolean };

/** Reads and discards the rest of a refused body, up to a cap; nothing is kept in memory. */
async function discardRest(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  alreadyRead: number,
): Promise<boolean> {
  let total = alreadyRead;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return true;
    total += value.byteLength;
    if (total > MAX_DISCARD_BYTES) {
      // Not cancelled: that would destroy the socket before the 413 is written. The rest stays
      // unread (paused by backpressure) until the answer, sent with Connection: close, ends it.
      reader.releaseLock();
      return false;
    }
  }
}

/** The body's bytes, or "too-large" as soon as more than `maxBytes` have arrived. */
async function readLimited(body: ReadableStream<Uint8Array>, maxBytes: number): Promise<Limited> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      chunks.length = 0;
      return { kind: "too-large", drained: await discardRest(reader, total) };
    }
    chunks.push(value);
  }
  return { kind: "ok", bytes: Buffer.concat(chunks, total) };
}

function collect(entries: Iterable<[string, string | File]>): Record<string, RawFieldValue> {
  const fields: Record<string, RawFieldValue> = Object.create(null);
  for (const [key, value] of entries) {
    const existing = fields[key];
    if (existing === undefined) fields[key] = value;
    else if (Array.isArray(existing)) existing.push(value);
    else fields[key] = [existing, value];
  }
  return fields;
}

export async function readFormBody(request: Request, maxBytes = MAX_FORM_BYTES): Promise<FormBody> {
  const contentType = request.headers.get("content-type");
  const type = mediaType(contentType);
  if (!FORM_TYPES.has(type)) return { kind: "unsupported-type" };

  const declared = Number(request.headers.get("content-length") ?? Number.NaN);
  if (declared > maxBytes) {
    // Refused on its declared size without keeping any of it.
    if (declared > MAX_DISCARD_BYTES || !request.body) return { kind: "too-large", drained: false };
    return { kind: "too-large", drained: await discardRest(request.body.getReader(), 0) };
  }

  const read = request.body
    ? await readLimited(request.body, maxBytes)
    : ({ kind: "ok", bytes: new Uint8Array(0) } as const);
  if (read.kind === "too-large") return read;

  try {
    if (type === "application/x-www-form-urlencoded") {
      // Invalid UTF-8 becomes U+FFFD instead of failing: the validator judges the text.
      const params = new URLSearchParams(new TextDecoder().decode(read.bytes));
      return { kind: "ok", fields: collect(params.entries()) };
    }
    const form = await new Response(read.bytes as Uint8Array<ArrayBuffer>, {
      headers: { "content-type": contentType ?? type },
    }).formData();
    return { kind: "ok", fields: collect(form.entries()) };
  } catch {
    return { kind: "malformed" };
  }
}
