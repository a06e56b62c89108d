/**
 * What a request says about its client can only be believed as far as the
 * proxies in front of this server are trusted. TRUST_PROXY is the number of
 * proxies we run in front (0: none, so forwarded headers are ignored).
 */

/** The visitor's address per X-Forwarded-For, or undefined when no proxy is trusted. */
export function clientAddress(request: Request, trustedProxies: number): string | undefined {
  if (trustedProxies <= 0) return undefined;
  const header = request.headers.get("x-forwarded-for");
  if (!header) return undefined;
  const hops = header
    .split(",")
    .map((hop) => hop.trim())
    .filter(Boolean);
  // Each trusted proxy appends the address it received the request from; the
  // visitor is the hop that the outermost trusted proxy saw.
  const index = hops.length - trustedProxies;
  return index >= 0 ? hops[index] : hops[0];
}

/** Whether the request reached the outermost trusted proxy over HTTPS. */
export function isHttpsRequest(request: Request, trustedProxies: number): boolean {
  if (new URL(request.url).protocol === "https:") return true;
  if (trustedProxies <= 0) return false;
  const proto = request.headers.get("x-forwarded-proto");
  if (!proto) return false;
  const hops = proto.split(",").map((hop) => hop.trim().toLowerCase());
  return hops[0] === "https";
}
