/**
 * Reads a contact form submission without trusting its size or encoding: anything
 * over the limit is refused before it is read whole, and only the two encodings an
 * HTML form can send are accepted.
 */

export const MAX_FORM_BYTES = 16 * 1024;

const FORM_TYPES = new Set(["application/x-www-form-urlencoded", "multipart/form-data"]);

/** A field as it arrived: text, a file, or several values when the field was repeated. */
export type RawFieldValue = string | File | Array<string | File>;

export type FormBody =
  | { kind: "ok"; fields: Record<string, RawFieldValue> }
  | { kind: "too-large" }
  | { kind: "unsupported-type" }
  | { kind: "malformed" };

export function mediaType(contentType: string | null): string {
  return (contentType ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
}

/** The body's bytes, or null as soon as more than `maxBytes` have arrived. */
async function readLimited(body: ReadableStream<Uint8Array>, maxBytes: number): Promise<Uint8Array | null> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      // Stop reading but do not cancel: cancelling destroys the socket before the 413 can be
      // written. The unread rest stays paused (backpressure) until the connection closes
      // (the 413 is sent with Connection: close).
      reader.releaseLock();
      return null;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(new ArrayBuffer(total));
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
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

  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > maxBytes) return { kind: "too-large" };

  const bytes = request.body ? await readLimited(request.body, maxBytes) : new Uint8Array(0);
  if (bytes === null) return { kind: "too-large" };

  try {
    if (type === "application/x-www-form-urlencoded") {
      // Invalid UTF-8 becomes U+FFFD instead of failing: the validator judges the text.
      const params = new URLSearchParams(new TextDecoder().decode(bytes));
      return { kind: "ok", fields: collect(params.entries()) };
    }
    const form = await new Response(bytes as Uint8Array<ArrayBuffer>, {
      headers: { "content-type": contentType ?? type },
    }).formData();
    return { kind: "ok", fields: collect(form.entries()) };
  } catch {
    return { kind: "malformed" };
  }
}
