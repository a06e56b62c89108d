import type { ContactNotice as Notice } from "~/lib/contact/types";

export const CONTACT_NOTICE_ID = "contact-notice";

/** The server's answer next to the form when the page was posted without JavaScript. */
export function ContactNotice({ notice }: { notice: Notice }) {
  const error = notice.kind === "error";
  return (
    <div
      id={CONTACT_NOTICE_ID}
      role={error ? "alert" : "status"}
      className={
        "rounded-sm border px-4 py-3 sm:col-span-2 " +
        (error ? "border-red-300 bg-red-50 text-red-900" : "border-accent-700/40 bg-accent-200 text-ink-950")
      }
    >
      <p className="font-semibold">{notice.title}</p>
      <p className="mt-1 text-sm">{notice.description}</p>
    </div>
  );
}
