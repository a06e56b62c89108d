interface AnalyticsProps {
  measurementId: string;
  nonce: string | undefined;
}

/**
 * Google Analytics (gtag.js), rendered only when GA_MEASUREMENT_ID is configured. One inline
 * script sets gtag up and inserts gtag.js itself: a parser-inserted `<script src>` could only be
 * allowed by a nonce, and the cached home document has none (its policy lists script hashes);
 * under `'strict-dynamic'` a script inserted by an allowed script is allowed.
 */
export function Analytics({ measurementId, nonce }: AnalyticsProps) {
  const src = `https://www.googletagmanager.com/gtag/js?id=${encodeURIComponent(measurementId)}`;
  const init = [
    "window.dataLayer=window.dataLayer||[];",
    "function gtag(){dataLayer.push(arguments);}",
    "window.gtag=gtag;",
    "gtag('js',new Date());",
    `gtag('config',${JSON.stringify(measurementId)});`,
    `var s=document.createElement('script');s.async=true;s.src=${JSON.stringify(src)};`,
    "document.head.appendChild(s);",
  ].join("");
  return <script nonce={nonce} dangerouslySetInnerHTML={{ __html: init }} />;
}
