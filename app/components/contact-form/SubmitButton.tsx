import { contactFormText as text } from "~/content/contact-form";

/** `aria-disabled`, not `disabled`, while sending: a disabled button drops the presser's focus. */
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
