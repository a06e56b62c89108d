import { contactFormText as text } from "~/content/contact-form";

/** The submit button; while sending it is disabled and shows a spinner with "Sending Message...". */
export function SubmitButton({ submitting }: { submitting: boolean }) {
  return (
    <button
      type="submit"
      disabled={submitting}
      className="inline-flex min-h-12 items-center justify-center gap-2 rounded-full bg-ink-950 px-8 py-3 text-base font-semibold text-white transition hover:bg-ink-800 focus-visible:outline-none focus-visible:ring-4 focus-visible:ring-accent-400 disabled:cursor-wait disabled:bg-ink-700"
    >
      {submitting ? (
        <svg
          aria-hidden="true"
          data-testid="contact-spinner"
          className="size-5 motion-safe:animate-spin"
          viewBox="0 0 24 24"
          fill="none"
        >
          <circle cx="12" cy="12" r="9" stroke="currentColor" strokeOpacity="0.3" strokeWidth="3" />
          <path d="M21 12a9 9 0 0 0-9-9" stroke="currentColor" strokeWidth="3" strokeLinecap="round" />
        </svg>
      ) : null}
      {submitting ? text.submitting : text.submit}
    </button>
  );
}
