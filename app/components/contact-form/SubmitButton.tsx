import { contactFormText as text } from "~/content/contact-form";

/**
 * The submit button, the page's most important action: the accent, full width, at least as large as
 * any other link to the form. While sending it is disabled and shows a spinner with "Sending Message...".
 */
export function SubmitButton({ submitting }: { submitting: boolean }) {
  return (
    <button
      type="submit"
      disabled={submitting}
      className="btn btn-xl btn-accent w-full disabled:cursor-wait disabled:bg-accent-300"
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
