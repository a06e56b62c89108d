/** Small HTTP rules the cached home document is served by: pure, so they are unit-tested alone. */

export type Encoding = "br" | "gzip" | "identity";

/** The q-value the `Accept-Encoding` header gives a coding (RFC 9110 §12.5.3). */
function acceptedQuality(header: string, coding: Exclude<Encoding, "identity">): number {
  let wildcard: number | undefined;
  for (const part of header.split(",")) {
    const [name = "", ...params] = part.trim().toLowerCase().split(";");
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    const quality = Number.isFinite(q) ? q : 0;
    if (name === coding) return quality;
    if (name === "*") wildcard = quality;
  }
  return wildcard ?? 0;
}

/**
 * Brotli when the client takes it (the smallest body), else gzip, else the plain bytes. Browsers
 * list `gzip` before `br`: their order is not a preference, only q-values are.
 */
export function chooseEncoding(acceptEncoding: string | null): Encoding {
  if (!acceptEncoding) return "identity";
  if (acceptedQuality(acceptEncoding, "br") > 0) return "br";
  if (acceptedQuality(acceptEncoding, "gzip") > 0) return "gzip";
  return "identity";
}

/** Weak comparison (RFC 9110 §13.1.2): `W/"x"` matches `"x"`; `*` matches any representation. */
export function matchesIfNoneMatch(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === "*") return true;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, "");
  const wanted = opaque(etag);
  return ifNoneMatch.split(",").some((tag) => opaque(tag) === wanted);
}
