/** The consent bar's copy (decision 047). */
export const consentText = {
  /** The bar's name for assistive technology, and its first line. */
  heading: "Analytics cookies",
  body: "May Google Analytics count your visit? It sets cookies. Nothing from Google loads unless you accept.",
  more: "Privacy Policy",
  accept: "Accept",
  decline: "Decline",
  settings: "Cookie settings",
  /** What a screen reader hears when the bar appears, and after a choice. */
  announce: {
    shown: "Analytics cookies: choose Accept or Decline at the bottom of the page.",
    accepted: "Analytics accepted.",
    declined: "Analytics declined.",
  },
} as const;
