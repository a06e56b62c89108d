interface AnalyticsProps {
  measurementId: string;
  nonce: string | undefined;
}

/** Google Analytics (gtag.js), rendered only when GA_MEASUREMENT_ID is configured. */
export function Analytics({ measurementId, nonce }: AnalyticsProps) {
  const init = [
    "window.dataLayer=window.dataLayer||[];",
    "function gtag(){dataLayer.push(arguments);}",
    "window.gtag=gtag;",
    "gtag('js',new Date());",
    `gtag('config',${JSON.stringify(measurementId)});`,
  ].join("");
  return (
    <>
      <script
        async
        nonce={nonce}
        src={`https://www.googletagmanager.com/gtag/js?id=${encodeURIComponent(measurementId)}`}
      />
      <script nonce={nonce} dangerouslySetInnerHTML={{ __html: init }} />
    </>
  );
}
