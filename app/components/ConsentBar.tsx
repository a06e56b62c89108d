import { consentText } from "~/content/consent";
import { CONSENT_DOM } from "~/lib/analytics-consent";

/** Both choices look and weigh the same: neither is the "default" a visitor is steered to. */
const CHOICE = "btn btn-line min-h-11 min-w-28 px-5 text-sm";

/**
 * Decision 047. Fixed, so showing it moves nothing. Hidden in the markup (without JavaScript there is
 * nothing to ask); `Analytics`' script shows it, maybe before React hydrates, which keeps `hidden`.
 */
export function ConsentBar() {
  return (
    <section
      id={CONSENT_DOM.bar}
      aria-labelledby={CONSENT_DOM.label}
      aria-describedby={CONSENT_DOM.text}
      tabIndex={-1}
      hidden
      suppressHydrationWarning
      className="on-ink fixed inset-x-0 bottom-0 z-50 border-t border-white/15 bg-ink-950 text-white shadow-card focus:outline-none"
    >
      <div className="shell flex flex-col gap-3 py-4 sm:flex-row sm:items-center sm:justify-between sm:gap-6">
        <div className="max-w-3xl text-sm leading-relaxed text-ink-100">
          <p id={CONSENT_DOM.label} className="font-semibold text-white">
            {consentText.heading}
          </p>
          <p id={CONSENT_DOM.text}>
            {consentText.body}{" "}
            <a href="/privacy#cookies" className="link text-white">
              {consentText.more}
            </a>
          </p>
        </div>
        <div className="flex shrink-0 gap-3">
          <button type="button" {...{ [CONSENT_DOM.action]: "accept" }} className={CHOICE}>
            {consentText.accept}
          </button>
          <button type="button" {...{ [CONSENT_DOM.action]: "decline" }} className={CHOICE}>
            {consentText.decline}
          </button>
        </div>
      </div>
    </section>
  );
}
