import { contactFormText as text } from "~/content/contact-form";

/**
 * The submit button, the page's most important action: the accent, full width, at least as large as
 * any other link to the form. While sending it shows a spinner with "Sending Message..." and says it is
 * unavailable with `aria-disabled`, not `disabled`: a disabled button drops the focus of whoever
 * pressed it (the next Tab started from nowhere). The form ignores a submit while one is
 * in flight, so a double click still sends once.
 */
export function SubmitButton({ submitting }: { submitting: boolean }) {
  return (
    <button
      type="submit"
      aria-disabled={submitting || undefined}
      className="btn btn-xl btn-accent w-full aria-disabled:cursor-wait aria-disabled:bg-accent-300"
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
