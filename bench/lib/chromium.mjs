// Chromium flags shared by the byte count and Lighthouse: headless, no sandbox (root),
// no background traffic, and every host name resolved to nothing, so that the browser
// can only ever reach 127.0.0.1 (a third-party request fails and is counted instead).
export const chromePath = process.env.CHROME_PATH || "/usr/bin/chromium";

export const chromeFlags = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost",
];

export function isLoopback(url) {
  const { protocol, hostname } = new URL(url);
  if (protocol !== "http:" && protocol !== "https:" && protocol !== "ws:" && protocol !== "wss:") return true;
  return hostname === "127.0.0.1" || hostname === "localhost" || hostname === "[::1]" || hostname === "::1";
}
