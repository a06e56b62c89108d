/**
 * Consent before analytics (decision 047). The choice lives only in the visitor's browser, so the
 * home page stays one file for everyone (decision 041). This inline script, not React, runs the
 * bar: it acts as soon as the document is parsed, long before React arrives (decision 036), and
 * listens on `document`, so hydration never replaces a node under a press.
 */

/** Where the choice is kept in the visitor's browser: "granted" or "denied"; absent, the bar asks. */
export const CONSENT_KEY = "analytics-consent";

/** The markup the script and the component share. */
export const CONSENT_DOM = {
  bar: "consent-bar",
  label: "consent-label",
  text: "consent-text",
  /** The live region the script adds, for screen readers. */
  status: "consent-status",
  /** `data-consent` on a control: what pressing it does. */
  action: "data-consent",
  /** A wrapper the script reveals (the footer's "Cookie settings"): hidden without JavaScript. */
  reveal: "data-consent-reveal",
} as const;

export interface ConsentConfig {
  measurementId: string;
  src: string;
  key: string;
  dom: typeof CONSENT_DOM;
  announce: { shown: string; accepted: string; declined: string };
}

export const gtagSource = (measurementId: string) =>
  `https://www.googletagmanager.com/gtag/js?id=${encodeURIComponent(measurementId)}`;

/** Inlined as source text: it may use nothing from outside itself, and only syntax all parse. */
function runConsent(config: ConsentConfig): void {
  const w = window as unknown as Window & { dataLayer: unknown[]; gtag?: (...args: unknown[]) => void };
  const d = document;
  w.dataLayer = w.dataLayer || [];
  // gtag's own shape: the tag reads `arguments` objects from dataLayer, not arrays.
  const gtag = function (..._args: unknown[]) {
    // eslint-disable-next-line prefer-rest-params
    w.dataLayer.push(arguments);
  };
  // Consent mode, denied until the visitor accepts: nothing is sent or stored for analytics before.
  gtag("consent", "default", {
    ad_storage: "denied",
    ad_user_data: "denied",
    ad_personalization: "denied",
    analytics_storage: "denied",
  });
  const bar = d.getElementById(config.dom.bar);
  let loaded = false;
  let opener: HTMLElement | null = null;
  // Made here, outside React's markup: React leaves the tail of <body> alone when it hydrates.
  const status = d.createElement("div");
  status.id = config.dom.status;
  status.setAttribute("role", "status");
  status.className = "sr-only";
  d.body.appendChild(status);
  const say = (text: string) => {
    status.textContent = "";
    // A live region announces a change, not its first content: the text arrives a moment after it exists.
    setTimeout(() => {
      status.textContent = text;
    }, 100);
  };
  const read = (): string | null => {
    try {
      return w.localStorage.getItem(config.key);
    } catch {
      return null;
    }
  };
  const keep = (value: string) => {
    try {
      w.localStorage.setItem(config.key, value);
    } catch {
      // Storage refused (a private mode): the choice holds for this page only.
    }
  };
  const load = () => {
    w.gtag = gtag;
    gtag("consent", "update", { analytics_storage: "granted" });
    if (loaded) return;
    loaded = true;
    gtag("js", new Date());
    gtag("config", config.measurementId);
    const script = d.createElement("script");
    script.async = true;
    script.src = config.src;
    d.head.appendChild(script);
  };
  const unload = () => {
    if (loaded) gtag("consent", "update", { analytics_storage: "denied" });
    // form_submit fires only while window.gtag exists (app/lib/contact/analytics.ts).
    delete w.gtag;
    // Google's cookies, if an earlier Accept left any: expired on this host and its parent domains.
    const host = location.hostname.split(".");
    for (const cookie of d.cookie.split(";")) {
      const name = cookie.split("=")[0]!.trim();
      if (!/^_ga(_|$)/.test(name)) continue;
      for (let i = 0; i < host.length; i += 1) {
        const domain = host.slice(i).join(".");
        d.cookie = `${name}=; Max-Age=0; Path=/; Domain=${domain}`;
      }
      d.cookie = `${name}=; Max-Age=0; Path=/`;
    }
  };
  const show = (focus: boolean) => {
    if (!bar) return;
    bar.hidden = false;
    if (focus) bar.focus();
    say(config.announce.shown);
  };
  const hide = () => {
    if (!bar) return;
    bar.hidden = true;
    if (opener) opener.focus();
    opener = null;
  };
  const choose = (granted: boolean) => {
    keep(granted ? "granted" : "denied");
    hide();
    if (granted) load();
    else unload();
    say(granted ? config.announce.accepted : config.announce.declined);
  };
  d.addEventListener("click", (event) => {
    const target = event.target instanceof Element ? event.target.closest(`[${config.dom.action}]`) : null;
    if (!target) return;
    const action = target.getAttribute(config.dom.action);
    if (action === "accept") choose(true);
    else if (action === "decline") choose(false);
    else if (action === "open") {
      opener = target as HTMLElement;
      show(true);
    }
  });
  d.addEventListener("keydown", (event) => {
    // Escape closes a bar opened again from "Cookie settings", keeping the earlier choice.
    if (event.key === "Escape" && bar && !bar.hidden && opener) hide();
  });
  for (const element of Array.from(d.querySelectorAll(`[${config.dom.reveal}]`)))
    (element as HTMLElement).hidden = false;
  // After the first paint: Chromium's first localStorage read is a synchronous round trip that
  // would hold it; the bar is fixed, so showing it a frame later moves nothing.
  requestAnimationFrame(() =>
    setTimeout(() => {
      const choice = read();
      if (choice === "granted") load();
      else if (choice !== "denied") show(false);
    }, 0),
  );
}

/** The inline script's text: `runConsent` with this configuration. Inlined in `<script>`, so checked. */
export function consentScript(config: ConsentConfig): string {
  const json = JSON.stringify(config).replace(/</g, "\\u003c");
  const text = `(${runConsent.toString()})(${json});`;
  if (/<\/script|<!--/i.test(text)) throw new Error("The consent script cannot be inlined as it is.");
  return text;
}
