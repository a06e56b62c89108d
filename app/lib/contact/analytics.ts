declare global {
  interface Window {
    gtag?: (...args: unknown[]) => void;
  }
}

/** Fires the spec's analytics event; `window.gtag` exists only after consent (decision 047). */
export function trackContactSubmit(
  target: Window | undefined = typeof window === "undefined" ? undefined : window,
): void {
  if (typeof target?.gtag !== "function") return;
  try {
    target.gtag("event", "form_submit", {
      event_category: "Contact",
      event_label: "Contact Form Submission",
    });
  } catch {
    // Analytics must never stop a lead from being sent.
  }
}
