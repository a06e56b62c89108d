import { isIP } from "node:net";

/**
 * Forwarded headers are believed only as far as TRUST_PROXY, the number of proxies we run in
 * front (0: ignored, as any visitor can write them). Each proxy appends to X-Forwarded-For, so
 * with N trusted proxies the visitor is the N-th hop from the right; left of it is untrusted.
 */

function splitHops(header: string | null): string[] {
  if (!header) return [];
  return header
    .split(",")
    .map((hop) => hop.trim())
    .filter(Boolean);
}

/** The entry the outermost trusted proxy wrote, or undefined when there is none. */
function trustedHop(hops: string[], trustedProxies: number): string | undefined {
  if (trustedProxies <= 0 || hops.length === 0) return undefined;
  // Fewer hops than proxies: a proxy overwrote rather than appended; its value is the only one.
  return hops[Math.max(0, hops.length - trustedProxies)];
}

/**
 * An address as proxies write it ("[2001:db8::1]:443", "::ffff:203.0.113.7") as the bare IP;
 * undefined when it is none ("unknown").
 */
export function normalizeAddress(raw: string): string | undefined {
  let value = raw.trim();
  if (value.length === 0 || value.length > 64) return undefined;
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(value);
  if (bracketed?.[1]) value = bracketed[1];
  else if (/^[\d.]+:\d+$/.test(value)) value = value.slice(0, value.lastIndexOf(":"));
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(value);
  if (mapped?.[1]) value = mapped[1];
  if (isIP(value) === 0) return undefined;
  return value.toLowerCase();
}

/** The eight 16-bit groups of an IPv6 address (its zone dropped, a trailing IPv4 part folded in). */
function ipv6Groups(address: string): number[] {
  let text = address.split("%", 1)[0]!;
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = "", tail] = text.split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const middle = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill("0");
  return [...left, ...middle, ...right].map((group) => parseInt(group, 16));
}

/**
 * The key one client's submissions are counted under: an IPv4 address as it is, an IPv6 address
 * by its /64 network. Every IPv6 customer is handed a /64 (2^64 addresses to rotate through), so a
 * key per address would let one of them use up the global ceiling alone.
 */
export function clientLimitKey(address: string): string {
  if (isIP(address) !== 6) return address;
  const network = ipv6Groups(address)
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(":");
  return `${network}::/64`;
}

/** The visitor's address per X-Forwarded-For, or undefined when no proxy is trusted or it is not an IP. */
export function clientAddress(request: Request, trustedProxies: number): string | undefined {
  const hop = trustedHop(splitHops(request.headers.get("x-forwarded-for")), trustedProxies);
  return hop === undefined ? undefined : normalizeAddress(hop);
}

/**
 * Whether the visitor reached the outermost trusted proxy over HTTPS, by its X-Forwarded-Proto
 * (the server itself speaks plain HTTP).
 */
export function forwardedAsHttps(forwardedProto: string | null, trustedProxies: number): boolean {
  return trustedHop(splitHops(forwardedProto), trustedProxies)?.toLowerCase() === "https";
}
