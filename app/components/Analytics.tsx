interface AnalyticsProps {
  measurementId: string;
}

/**
 * Google Analytics (gtag.js), rendered only when GA_MEASUREMENT_ID is configured. One inline
 * script sets gtag up and inserts gtag.js itself: the document's policy lists the hashes of its
 * inline scripts (a parser-inserted `<script src>` could not be allowed that way), and under
 * `'strict-dynamic'` a script inserted by an allowed script is allowed.
 */
export function Analytics({ measurementId }: AnalyticsProps) {
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
  return <script dangerouslySetInnerHTML={{ __html: init }} />;
}
